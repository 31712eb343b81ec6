package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scenarios of the official MCP conformance suite (0.1.16, from the interop cache) against a server
 * started with {@code bin/skillport} on 127.0.0.1 serving the sample skills.
 */
class ConformanceIT {
  @TempDir static Path home;
  private static LaunchedServer http;

  @BeforeAll
  static void start() throws Exception {
    http = SamplesHttpServer.start(home);
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
  void scenario_passes(String scenario) {
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.conformance("0.1", http.uri(), "--scenario", scenario))
            .environment(InteropTools.environment())
            .timeout(Duration.ofMinutes(5))
            .run();

    assertThat(run.exit()).as(run.toString()).isZero();
    assertThat(run.stdout()).contains(" 0 failed");
  }
}
