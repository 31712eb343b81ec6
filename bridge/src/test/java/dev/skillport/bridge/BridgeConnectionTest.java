package dev.skillport.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.mcp.client.McpClient;
import dev.skillport.model.skill.McpBridgeSpec;
import dev.skillport.runtime.secrets.Redactor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BridgeConnectionTest {
  @TempDir Path dir;

  /**
   * A server that writes a burst to stderr and exits at once: its last lines are still in the pipe
   * when the exit is seen, and the crash report must quote them.
   */
  @Test
  void exit_afterAStderrBurst_reportsTheLastLineWritten() throws Exception {
    String script =
        // The pause lets the exit be watched before it happens, as with any real server.
        "sleep 0.5; head -c 60000 /dev/zero | tr '\\0' 'x' | fold -w 100 >&2; echo 'dying now' >&2; exit 3";
    McpBridgeSpec spec =
        new McpBridgeSpec(
            "/bin/sh",
            List.of("-c", script),
            Map.of(),
            dir,
            null,
            30,
            List.of(),
            List.of(),
            dir.resolve("mcp.yaml"),
            "digest");
    CompletableFuture<BridgeConnection> started = new CompletableFuture<>();
    CompletableFuture<String> report = new CompletableFuture<>();
    BridgeConnection connection =
        BridgeConnection.start(
            "burst",
            spec,
            Path.of("/bin/sh"),
            Map.of("PATH", "/usr/bin:/bin"),
            "test-marker",
            McpClient.Options.defaults("test", "1"),
            (String method, JsonNode params) -> {},
            new Redactor(),
            // The exit may be seen before start returns, on the starting thread: wait without
            // blocking.
            code -> started.thenAccept(c -> report.complete(code + " " + c.stderrTail(1000))));
    started.complete(connection);
    try {
      assertThat(report.get(30, TimeUnit.SECONDS)).startsWith("3 ").endsWith("dying now");
    } finally {
      connection.stop(java.time.Duration.ZERO);
    }
  }
}
