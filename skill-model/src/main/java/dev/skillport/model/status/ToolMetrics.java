package dev.skillport.model.status;

import java.time.Duration;
import java.util.Objects;

/**
 * Calls of one tool since the server started. Percentiles are approximate (the server keeps a
 * histogram, not every duration); {@code max} is exact.
 *
 * @param tool the tool name as called
 * @param calls how many calls finished
 * @param errors how many of them failed
 * @param p50 the median duration
 * @param p95 the 95th percentile duration
 * @param max the longest call
 */
public record ToolMetrics(
    String tool, long calls, long errors, Duration p50, Duration p95, Duration max) {
  public ToolMetrics {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(p50, "p50");
    Objects.requireNonNull(p95, "p95");
    Objects.requireNonNull(max, "max");
    if (calls < 0 || errors < 0 || errors > calls) {
      throw new IllegalArgumentException("need 0 <= errors <= calls");
    }
  }
}
