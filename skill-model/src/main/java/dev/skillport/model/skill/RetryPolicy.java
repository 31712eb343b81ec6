package dev.skillport.model.skill;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
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

  /**
   * The policy a workflow step's {@code retry} block describes ({@code max_attempts}, {@code
   * backoff}, {@code initial_delay_ms}, {@code max_delay_ms}, {@code jitter}); {@link #NONE} when
   * the block is absent or not a mapping.
   *
   * @throws IllegalArgumentException for an unknown backoff or out-of-range numbers
   */
  public static RetryPolicy fromSpec(JsonNode retry) {
    if (retry == null || !retry.isObject()) {
      return NONE;
    }
    return new RetryPolicy(
        retry.path("max_attempts").asInt(1),
        Backoff.valueOf(retry.path("backoff").asText("fixed").toUpperCase(Locale.ROOT)),
        retry.path("initial_delay_ms").asLong(0),
        retry.path("max_delay_ms").asLong(0),
        retry.path("jitter").asBoolean(false));
  }

  /** How the delay grows between attempts. */
  public enum Backoff {
    FIXED,
    LINEAR,
    EXPONENTIAL
  }
}
