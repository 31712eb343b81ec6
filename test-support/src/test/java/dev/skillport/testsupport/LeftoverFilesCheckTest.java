package dev.skillport.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

class LeftoverFilesCheckTest {
  @TempDir Path watched;
  private String saved;

  /** Where the classes run by the engine below write. */
  static Path target;

  @BeforeEach
  void watch() {
    saved = System.getProperty(LeftoverFilesCheck.PROPERTY);
    System.setProperty(LeftoverFilesCheck.PROPERTY, watched.toString());
    target = watched;
  }

  @AfterEach
  void restore() {
    if (saved == null) {
      System.clearProperty(LeftoverFilesCheck.PROPERTY);
    } else {
      System.setProperty(LeftoverFilesCheck.PROPERTY, saved);
    }
  }

  static final class LeavesAFolder {
    @Test
    void writes() throws IOException {
      Files.createDirectories(target.resolve("skillport-bundled123/skill"));
    }
  }

  static final class RemovesWhatItMakes {
    @Test
    void writesAndRemoves() throws IOException {
      Path file = Files.createFile(target.resolve("scratch.txt"));
      Files.delete(file);
    }
  }

  /** Makes JUnit's temp folders inside the watched folder, named as JUnit names them. */
  static final class InWatchedFolder implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context)
        throws IOException {
      return Files.createTempDirectory(target, "junit-");
    }
  }

  static final class UsesTempDir {
    @TempDir(factory = InWatchedFolder.class)
    static Path mine;

    @Test
    void writes() throws IOException {
      Files.writeString(mine.resolve("x.txt"), "x");
    }
  }

  static final class LeavesAProcessRunning {
    @Test
    void starts() throws IOException {
      new ProcessBuilder("sleep", "60").start();
    }
  }

  private static EngineExecutionResults run(Class<?> testClass) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
        .configurationParameter(LeftoverFilesCheck.CHILD_WAIT_PARAMETER, "500")
        .configurationParameter("junit.jupiter.tempdir.cleanup.mode.default", "ALWAYS")
        .selectors(selectClass(testClass))
        .execute();
  }

  @Test
  void afterAll_classLeftAFolder_failsTheClassNamingIt() {
    EngineExecutionResults results = run(LeavesAFolder.class);

    results.testEvents().assertStatistics(stats -> stats.succeeded(1));
    results
        .containerEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                container(LeavesAFolder.class),
                finishedWithFailure(
                    instanceOf(AssertionError.class),
                    message(m -> m.contains("LeavesAFolder left files")),
                    message(m -> m.contains(watched.resolve("skillport-bundled123").toString())),
                    message(
                        m ->
                            m.contains(
                                watched.resolve("skillport-bundled123/skill").toString())))));
  }

  @Test
  void afterAll_classLeftAProcessRunning_failsTheClassAndEndsTheProcess() {
    EngineExecutionResults results = run(LeavesAProcessRunning.class);

    results
        .containerEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                container(LeavesAProcessRunning.class),
                finishedWithFailure(message(m -> m.contains("still running: ")))));
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)).isEmpty();
  }

  @Test
  void afterAll_classRemovedItsFiles_passes() {
    run(RemovesWhatItMakes.class).containerEvents().assertStatistics(stats -> stats.failed(0));
  }

  @Test
  void afterAll_junitTempDir_isLeftToJunit() {
    run(UsesTempDir.class).containerEvents().assertStatistics(stats -> stats.failed(0));
  }

  @Test
  void snapshot_withoutProperty_watchesNothing() {
    System.clearProperty(LeftoverFilesCheck.PROPERTY);

    assertThat(LeftoverFilesCheck.watched()).isEmpty();
  }
}
