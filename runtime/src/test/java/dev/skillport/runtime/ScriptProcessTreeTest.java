package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scripts whose children misbehave: they keep the output pipes open, detach with {@code setsid},
 * fan out, or flood stderr. The result must be what the script printed, and no process may outlive
 * the call (or, for a daemon that detached cleanly, the runner's close). Each test gives its
 * children a unique token in their command line and scans {@code /proc} for it.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScriptProcessTreeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** A token no other process has in its command line. */
  private final String token = "skillport-test-" + UUID.randomUUID();

  private final ScriptToolRunner runner =
      new ScriptToolRunner(
          ScriptPolicy.defaults().withDefaultTimeout(Duration.ofSeconds(20)),
          Map.of("PATH", System.getenv("PATH")));

  @AfterEach
  void noneLeft() throws Exception {
    try {
      assertThat(awaitNone(Duration.ofSeconds(5)))
          .as("processes with the test's token still running")
          .isEmpty();
    } finally {
      runner.close(Duration.ZERO);
      // Should the assertion fail, do not leave them running either.
      for (long pid : withToken()) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Test
  void run_backgroundChildKeepsStdoutOpen_resultIsWhatTheScriptPrinted() throws Exception {
    Path script =
        script(
            "echo '{\"success\": true, \"value\": 42}'\n"
                + "sh -c 'sleep 600; echo late' "
                + token
                + " &\n"
                + "exit 0\n");
    long start = System.nanoTime();

    ToolResult result = runner.run(script, dir, JSON.readTree("{}"), null, ToolContext.NONE);

    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(result.isError()).as(result.toString()).isFalse();
    assertThat(result.structured().path("value").asInt()).isEqualTo(42);
    assertThat(took).isLessThan(Duration.ofSeconds(5));
    assertThat(withToken()).isEmpty();
  }

  @Test
  void run_setsidDoubleForkedDaemon_endsAtTheTimeout() throws Exception {
    Path script =
        script(
            // The middle shell exits at once, so the daemon is no descendant of the script by
            // the time the timeout kills the script.
            "( setsid sh -c 'sleep 600' "
                + token
                + " </dev/null >/dev/null 2>&1 & )\n"
                + "sleep 600\n");

    ToolResult result = runner.run(script, dir, JSON.readTree("{}"), 1, ToolContext.NONE);

    assertThat(result.structured().path("code").asText()).isEqualTo("SCRIPT_TIMEOUT");
    assertThat(awaitNone(Duration.ofSeconds(3))).isEmpty();
  }

  @Test
  void run_setsidDaemonAfterCleanExit_endsWithTheCall() throws Exception {
    Path script =
        script(
            "( setsid sh -c 'sleep 600' "
                + token
                + " </dev/null >/dev/null 2>&1 & )\n"
                + "echo '{\"success\": true}'\n");

    ToolResult result = runner.run(script, dir, JSON.readTree("{}"), null, ToolContext.NONE);

    assertThat(result.isError()).as(result.toString()).isFalse();
    assertThat(awaitNone(Duration.ofSeconds(3))).isEmpty();
  }

  @Test
  void run_forkFanOutCancelled_killsEveryChild() throws Exception {
    Path script =
        script(
            "for i in $(seq 1 40); do sh -c 'sleep 600' "
                + token
                + " & done\n"
                + "( for i in $(seq 1 10); do setsid sh -c 'sleep 600' "
                + token
                + " </dev/null >/dev/null 2>&1 & done )\n"
                + "sleep 600\n");
    long cancelAt = System.nanoTime() + Duration.ofMillis(800).toNanos();
    ToolContext cancelling =
        new ToolContext() {
          @Override
          public void progress(double progress, Double total, String message) {}

          @Override
          public void log(String level, String message) {}

          @Override
          public boolean isCancelled() {
            return System.nanoTime() > cancelAt;
          }
        };

    ToolResult result = runner.run(script, dir, JSON.readTree("{}"), null, cancelling);

    assertThat(result.structured().path("code").asText()).isEqualTo("SCRIPT_CANCELLED");
    assertThat(awaitNone(Duration.ofSeconds(3))).isEmpty();
  }

  @Test
  void run_oneGigabyteOnStderrInOneLine_resultIsKept() throws Exception {
    Path script =
        script(
            "head -c 1073741824 /dev/zero | tr '\\\\0' x >&2\n"
                + "echo '{\"success\": true, \"value\": \"kept\"}'\n");

    ToolResult result = runner.run(script, dir, JSON.readTree("{}"), 50, ToolContext.NONE);

    assertThat(result.isError()).as(result.toString()).isFalse();
    assertThat(result.structured().path("value").asText()).isEqualTo("kept");
  }

  @Test
  void close_whileScriptsRun_killsThemAndRefusesNewRuns() throws Exception {
    Path script = script("sh -c 'sleep 600' " + token + " &\nsleep 600\n");
    List<ToolResult> results = new ArrayList<>();
    Thread call =
        new Thread(
            () -> {
              try {
                results.add(runner.run(script, dir, JSON.readTree("{}"), null, ToolContext.NONE));
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    call.start();
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (withToken().isEmpty() && System.nanoTime() < until) {
      Thread.sleep(20);
    }

    runner.close(Duration.ofMillis(200));
    call.join(5000);

    assertThat(results)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.structured().path("code").asText()).isEqualTo("SCRIPT_CANCELLED");
              assertThat(r.content().toString()).contains("shutting down");
            });
    assertThat(
            runner
                .run(script, dir, JSON.readTree("{}"), null, ToolContext.NONE)
                .content()
                .toString())
        .contains("shutting down");
  }

  private Path script(String body) throws IOException {
    return Files.writeString(dir.resolve("s-" + UUID.randomUUID() + ".sh"), body);
  }

  private List<Long> awaitNone(Duration wait) throws InterruptedException {
    long until = System.nanoTime() + wait.toNanos();
    List<Long> left = withToken();
    while (!left.isEmpty() && System.nanoTime() < until) {
      Thread.sleep(50);
      left = withToken();
    }
    return left;
  }

  /** Live processes whose command line holds the token (zombies have none). */
  private List<Long> withToken() {
    List<Long> out = new ArrayList<>();
    byte[] wanted = token.getBytes(StandardCharsets.UTF_8);
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"))) {
      for (Path p : procs) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          byte[] cmdline = Files.readAllBytes(p.resolve("cmdline"));
          if (indexOf(cmdline, wanted) >= 0) {
            out.add(Long.parseLong(name));
          }
        } catch (IOException e) {
          // gone
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
