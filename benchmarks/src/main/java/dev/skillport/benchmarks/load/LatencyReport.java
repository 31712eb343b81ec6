package dev.skillport.benchmarks.load;

import java.util.Arrays;
import java.util.Locale;

/** Percentiles and throughput of a set of latency samples (nanoseconds). */
record LatencyReport(long count, double seconds, long p50Nanos, long p99Nanos, long maxNanos) {

  static LatencyReport of(long[] samples, double seconds) {
    long[] sorted = samples.clone();
    Arrays.sort(sorted);
    if (sorted.length == 0) {
      return new LatencyReport(0, seconds, 0, 0, 0);
    }
    return new LatencyReport(
        sorted.length,
        seconds,
        percentile(sorted, 50),
        percentile(sorted, 99),
        sorted[sorted.length - 1]);
  }

  private static long percentile(long[] sorted, double p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "%d calls in %.1f s: %.0f calls/s, p50 %.3f ms, p99 %.3f ms, max %.3f ms",
        count,
        seconds,
        count / seconds,
        p50Nanos / 1e6,
        p99Nanos / 1e6,
        maxNanos / 1e6);
  }
}
