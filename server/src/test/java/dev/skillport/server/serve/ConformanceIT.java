package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official MCP conformance suite ({@code ../shared/tools/conformance.sh}) against the real
 * server on 127.0.0.1 serving the sample skills. The script installs its pinned tools from the npm
 * registry on first use.
 */
class ConformanceIT {
  private static SamplesHttpServer http;

  @BeforeAll
  static void start() throws Exception {
    http = SamplesHttpServer.start();
  }

  @AfterAll
  static void stop() {
    if (http != null) {
      http.close();
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "server-initialize",
        "ping",
        "tools-list",
        "dns-rebinding-protection",
        "server-sse-multiple-streams"
      })
  void scenario_passes(String scenario) throws Exception {
    Path script =
        Path.of(System.getProperty("skillport.shared", "../../shared"), "tools", "conformance.sh")
            .toAbsolutePath();
    assertThat(script).as("the shared conformance runner").isRegularFile();
    Path log = Files.createTempFile("conformance-" + scenario, ".log");
    try {
      Process p =
          new ProcessBuilder(
                  "bash", script.toString(), http.uri().toString(), "--scenario", scenario)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      p.getOutputStream().close();
      boolean done = p.waitFor(10, TimeUnit.MINUTES);
      if (!done) {
        p.destroyForcibly();
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(done).as("conformance finished").isTrue();
      assertThat(p.exitValue()).as(output).isZero();
      assertThat(output).contains(" 0 failed");
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
