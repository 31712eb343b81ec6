package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs scenarios of the official MCP conformance suite (0.1.16, from the interop cache) against the
 * HTTP transport with a tiny application.
 */
class ConformanceSuiteIT {
  private static EchoApplication app;
  private static StreamableHttpTransport transport;

  @BeforeAll
  static void start() throws Exception {
    app = new EchoApplication();
    transport = StreamableHttpTransport.builder(app.server).host("127.0.0.1").port(0).build();
    transport.start();
  }

  @AfterAll
  static void stop() {
    if (transport != null) {
      transport.close();
      app.server.close();
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "server-initialize",
        "ping",
        "logging-set-level",
        "dns-rebinding-protection",
        "server-sse-multiple-streams",
        "tools-call-with-progress",
        "tools-call-with-logging",
        "tools-call-sampling"
      })
  void scenario_passes(String scenario) {
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.conformance("0.1", transport.uri(), "--scenario", scenario))
            .environment(InteropTools.environment())
            .timeout(Duration.ofMinutes(5))
            .run();

    assertThat(run.exit()).as(run.toString()).isZero();
    assertThat(run.stdout()).contains(" 0 failed");
  }
}
