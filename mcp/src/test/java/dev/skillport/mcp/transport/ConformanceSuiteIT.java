package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs scenarios of the official MCP conformance suite ({@code shared/tools/conformance.sh}, beside
 * the project) against the HTTP transport with a tiny application. Skipped where the script is
 * absent; its first run installs Node and the suite from the npm registry.
 */
class ConformanceSuiteIT {
  private static EchoApplication app;
  private static StreamableHttpTransport transport;
  private static Path script;

  @BeforeAll
  static void start() throws Exception {
    script = findScript();
    if (script == null) {
      return;
    }
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
  void scenario_passes(String scenario) throws Exception {
    assumeTrue(script != null, "conformance.sh not found beside the project");
    Path log = Files.createTempFile("conformance-" + scenario, ".log");
    Process process =
        new ProcessBuilder(
                "bash", script.toString(), transport.uri().toString(), "--scenario", scenario)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean finished = process.waitFor(300, TimeUnit.SECONDS);
    if (!finished) {
      process.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);

    assertThat(finished).as("suite finished in time").isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains(" 0 failed");
  }

  private static Path findScript() throws IOException {
    String override = System.getenv("SKILLPORT_CONFORMANCE_SCRIPT");
    if (override != null && Files.isRegularFile(Paths.get(override))) {
      return Paths.get(override);
    }
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared/tools/conformance.sh");
      if (Files.isRegularFile(candidate)) {
        return candidate.toRealPath();
      }
    }
    return null;
  }
}
