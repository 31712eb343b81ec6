package dev.skillport.api.skill;

import java.util.Objects;

/** How a workflow step is retried after a failure. */
public record RetryPolicy(
    int maxAttempts, Backoff backoff, long initialDelayMs, long maxDelayMs, boolean jitter) {

  /** One attempt, no retry. */
  public static final RetryPolicy NONE = new RetryPolicy(1, Backoff.FIXED, 0, 0, false);

  public RetryPolicy {
    Objects.requireNonNull(backoff, "backoff");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1");
    }
    if (initialDelayMs < 0 || maxDelayMs < 0) {
      throw new IllegalArgumentException("delays must be >= 0");
    }
  }

  /** How the delay grows between attempts. */
  public enum Backoff {
    FIXED,
    LINEAR,
    EXPONENTIAL
  }
}
