package dev.skillport.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.status.AuditEntry;
import dev.skillport.registry.Catalog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerMetricsTest {
  private final ServerMetrics metrics =
      new ServerMetrics(Catalog::empty, Map::of, () -> 0, () -> 0);

  private void call(String tool, String outcome, long millis) {
    metrics.onCall(
        new AuditEntry(
            Instant.EPOCH, "s1", tool, Duration.ofMillis(millis), outcome, List.of("text")));
  }

  private String scrape() {
    return new String(metrics.scrape(), StandardCharsets.UTF_8);
  }

  @Test
  void onCall_countsEachToolAndOutcomeAndTimesEveryCall() {
    call("echo", "ok", 2);
    call("echo", "ok", 3);
    call("echo", "SCRIPT_FAILED", 4);
    call("render", "queued", 1);
    call("nope", "UNKNOWN_TOOL", 0);

    assertThat(scrape())
        .contains("skillport_tool_calls_total{outcome=\"ok\",tool=\"echo\"} 2.0")
        .contains("skillport_tool_calls_total{outcome=\"error\",tool=\"echo\"} 1.0")
        .contains("skillport_tool_calls_total{outcome=\"queued\",tool=\"render\"} 1.0")
        .contains("skillport_tool_calls_total{outcome=\"unknown_tool\",tool=\"(unknown)\"} 1.0")
        .contains("skillport_tool_call_duration_seconds_count{tool=\"echo\"} 3")
        .contains("skillport_tool_call_duration_seconds_sum{tool=\"echo\"} 0.009")
        // A series appears once it has counted something.
        .doesNotContain("outcome=\"queued\",tool=\"echo\"")
        .doesNotContain("tool=\"nope\"");
  }

  @Test
  void stopCounting_leavesEveryCountedSeriesAsItWas() {
    call("echo", "ok", 2);
    metrics.requestListener().requestReceived(dev.skillport.mcp.Era.LEGACY, "tools/call");
    String before = scrape();

    metrics.stopCounting();
    call("echo", "ok", 3);
    call("render", "SCRIPT_FAILED", 1);
    metrics.requestListener().requestReceived(dev.skillport.mcp.Era.LEGACY, "tools/call");
    metrics.requestListener().requestReceived(dev.skillport.mcp.Era.MODERN, "tools/list");

    assertThat(before)
        .contains("skillport_tool_calls_total{outcome=\"ok\",tool=\"echo\"} 1.0")
        .contains("method=\"tools/call\"} 1.0");
    assertThat(scrape()).isEqualTo(before).doesNotContain("render");
  }

  @Test
  void onCall_pastTheBoundOfToolNames_countsTheRestAsOther() {
    for (int i = 0; i < ServerMetrics.MAX_TOOLS + 10; i++) {
      call("tool-" + i, "ok", 1);
    }
    call("tool-0", "ok", 1);

    String text = scrape();
    assertThat(text)
        .contains("skillport_tool_calls_total{outcome=\"ok\",tool=\"tool-0\"} 2.0")
        .contains("skillport_tool_calls_total{outcome=\"ok\",tool=\"(other)\"} 10.0")
        .doesNotContain("tool=\"tool-" + (ServerMetrics.MAX_TOOLS + 5) + "\"");
  }
}
