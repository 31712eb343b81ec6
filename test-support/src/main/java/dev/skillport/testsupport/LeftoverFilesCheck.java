package dev.skillport.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class that leaves files behind in the folders the build gives tests as their home
 * and temp folder (system property {@code skillport.test.watch}, folders separated like {@code
 * PATH}), or a child process still running 15 s after the class ended (it is killed). Registered
 * for every test class through JUnit's extension auto-detection; without the property it checks
 * nothing.
 *
 * <p>JUnit's own {@code @TempDir} folders ({@code junit-} and digits) are not counted: a static one
 * is removed only after this check runs, and JUnit fails the test itself when it cannot remove one.
 */
public final class LeftoverFilesCheck implements BeforeAllCallback, AfterAllCallback {
  /** The system property naming the watched folders. */
  public static final String PROPERTY = "skillport.test.watch";

  /** The configuration parameter: how long child processes may take to end, in milliseconds. */
  public static final String CHILD_WAIT_PARAMETER = "skillport.test.childExitWaitMillis";

  private static final Duration DEFAULT_CHILD_WAIT = Duration.ofSeconds(15);

  private static final Pattern JUNIT_TEMP_DIR = Pattern.compile("junit-?\\d+");
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(LeftoverFilesCheck.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    List<Path> watched = watched();
    if (!watched.isEmpty()) {
      context.getStore(NAMESPACE).put("before", snapshot(watched));
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    @SuppressWarnings("unchecked")
    Set<String> before = (Set<String>) context.getStore(NAMESPACE).get("before", Set.class);
    if (before == null) {
      return;
    }
    // A process being stopped (a server after SIGTERM or the end of its input) cleans up as it
    // ends: wait for it, and count one that does not end as left behind too.
    Duration wait =
        context
            .getConfigurationParameter(CHILD_WAIT_PARAMETER)
            .map(ms -> Duration.ofMillis(Long.parseLong(ms)))
            .orElse(DEFAULT_CHILD_WAIT);
    List<String> running = stillRunning(wait);
    Set<String> left = snapshot(watched());
    left.removeAll(before);
    if (!left.isEmpty() || !running.isEmpty()) {
      List<String> lines = new ArrayList<>(left);
      running.forEach(p -> lines.add("still running: " + p));
      throw new AssertionError(
          context.getDisplayName()
              + " left files in the test home or temp folder, or processes running (a test must"
              + " remove what it creates and stop what it starts):\n  "
              + String.join("\n  ", lines));
    }
  }

  /** Child processes of this JVM still alive after {@code wait}; they are killed. */
  static List<String> stillRunning(Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    List<String> running = new ArrayList<>();
    for (ProcessHandle child : ProcessHandle.current().children().toList()) {
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        child.onExit().get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        running.add(child.pid() + " " + child.info().commandLine().orElse("?"));
        child.descendants().forEach(ProcessHandle::destroyForcibly);
        child.destroyForcibly();
        awaitQuietly(child);
      } catch (ExecutionException e) {
        // ended
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return running;
      }
    }
    return running;
  }

  /** The watched folders named by {@value #PROPERTY}. */
  static List<Path> watched() {
    String value = System.getProperty(PROPERTY, "");
    List<Path> dirs = new ArrayList<>();
    for (String part : value.split(Pattern.quote(File.pathSeparator))) {
      if (!part.isBlank()) {
        dirs.add(Path.of(part.strip()).toAbsolutePath().normalize());
      }
    }
    return dirs;
  }

  private static void awaitQuietly(ProcessHandle killed) {
    try {
      killed.onExit().get(5, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // reported as running already
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Every path under the watched folders, except JUnit's temp folders and what they hold. */
  static Set<String> snapshot(List<Path> dirs) {
    Set<String> paths = new TreeSet<>();
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try {
        Files.walkFileTree(
            dir,
            new SimpleFileVisitor<>() {
              @Override
              public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                if (d.equals(dir)) {
                  return FileVisitResult.CONTINUE;
                }
                if (d.getParent().equals(dir)
                    && JUNIT_TEMP_DIR.matcher(d.getFileName().toString()).matches()) {
                  return FileVisitResult.SKIP_SUBTREE;
                }
                paths.add(d.toString());
                return FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                paths.add(file.toString());
                return FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFileFailed(Path file, IOException e) {
                // Removed while walking: it is gone, so it is not left behind.
                return FileVisitResult.CONTINUE;
              }
            });
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + dir, e);
      }
    }
    return paths;
  }
}
