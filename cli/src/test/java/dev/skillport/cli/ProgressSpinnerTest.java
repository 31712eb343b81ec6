package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressSpinnerTest {
  private final StringWriter err = new StringWriter();

  @Test
  void start_enabledAndSlow_drawsAndErasesItsLine() {
    ProgressSpinner spinner =
        ProgressSpinner.start(new PrintWriter(err, true), "reading", Duration.ZERO, true);

    await().atMost(Duration.ofSeconds(5)).until(() -> err.toString().contains("reading"));
    spinner.stop();

    String written = err.toString();
    assertThat(written).startsWith("\r").containsPattern("[|/\\\\-] reading \\d+\\.\\ds");
    assertThat(written).endsWith("\r").contains("\r" + " ".repeat("| reading 0.0s".length()));
  }

  @Test
  void start_stoppedBeforeDelay_writesNothing() {
    ProgressSpinner spinner =
        ProgressSpinner.start(new PrintWriter(err, true), "reading", Duration.ofSeconds(30), true);
    spinner.stop();

    assertThat(err.toString()).isEmpty();
  }

  @Test
  void start_disabled_writesNothing() throws InterruptedException {
    ProgressSpinner spinner =
        ProgressSpinner.start(new PrintWriter(err, true), "reading", Duration.ZERO, false);
    Thread.sleep(300);
    spinner.stop();

    assertThat(err.toString()).isEmpty();
  }

  @Test
  void progressAllowed_onlyForAnInteractiveNonCiTerminal() {
    Path cwd = Path.of(".");
    Duration d = Duration.ZERO;

    assertThat(new CliEnvironment(cwd, null, true, Map.of(), d).progressAllowed()).isTrue();
    assertThat(new CliEnvironment(cwd, null, true, Map.of("NO_COLOR", "1"), d).progressAllowed())
        .isTrue();
    assertThat(new CliEnvironment(cwd, null, false, Map.of(), d).progressAllowed()).isFalse();
    assertThat(new CliEnvironment(cwd, null, true, Map.of("CI", "true"), d).progressAllowed())
        .isFalse();
    assertThat(new CliEnvironment(cwd, null, true, Map.of("CI", "false"), d).progressAllowed())
        .isTrue();
    assertThat(new CliEnvironment(cwd, null, true, Map.of("TERM", "dumb"), d).progressAllowed())
        .isFalse();
  }

  @Test
  void validate_interactiveWithZeroDelay_spinnerOnStderrOnlyStdoutClean(@TempDir Path dir) {
    SkillFolders.valid(dir, "good");
    CliEnvironment env = new CliEnvironment(dir, null, true, Map.of(), Duration.ZERO);

    CliRun run = CliRun.execute(env, "validate", "good");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).doesNotContain("\r").contains("PASS good");
    assertThat(run.err())
        .satisfiesAnyOf(e -> assertThat(e).isEmpty(), e -> assertThat(e).endsWith("\r"));
  }
}
