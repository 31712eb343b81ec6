package dev.skillport.workflows;

import dev.skillport.model.skill.RetryPolicy;

/**
 * The wait before a retry, as a pure function of the policy, the attempt that failed and a random
 * draw, so that the schedule can be checked exactly.
 */
final class RetryDelays {
  private RetryDelays() {}

  /**
   * Milliseconds to wait after attempt {@code failedAttempt} (1 for the first) failed.
   *
   * <p>{@code fixed} waits {@code initial_delay_ms} every time, {@code linear} {@code initial * n},
   * {@code exponential} {@code initial * 2^(n-1)}; {@code max_delay_ms} caps the delay when it is
   * above zero. With {@code jitter} the delay is drawn from the upper half of that value ({@code
   * (d/2, d]}), so retries spread out but never collapse to no wait at all.
   *
   * @param random a draw in {@code [0, 1)}; used only with jitter
   */
  static long delayMs(RetryPolicy policy, int failedAttempt, double random) {
    if (failedAttempt < 1) {
      throw new IllegalArgumentException("failedAttempt must be >= 1");
    }
    long initial = policy.initialDelayMs();
    long delay =
        switch (policy.backoff()) {
          case FIXED -> initial;
          case LINEAR -> saturatedMultiply(initial, failedAttempt);
          case EXPONENTIAL ->
              failedAttempt - 1 >= 62
                  ? (initial == 0 ? 0 : Long.MAX_VALUE)
                  : saturatedMultiply(initial, 1L << (failedAttempt - 1));
        };
    if (policy.maxDelayMs() > 0) {
      delay = Math.min(delay, policy.maxDelayMs());
    }
    if (policy.jitter() && delay > 0) {
      long half = delay / 2;
      delay = delay - (long) (Math.min(Math.max(random, 0), 0.999_999_999) * (delay - half));
    }
    return delay;
  }

  private static long saturatedMultiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high != 0 || low < 0 ? Long.MAX_VALUE : low;
  }
}
