package dev.skillport.adapters.blender;

import java.time.Duration;
import java.util.Objects;

/**
 * How long to wait before starting Blender again after it crashed or failed to start: {@code
 * first}, doubled for every further failure in a row, at most {@code max}.
 */
record Backoff(Duration first, Duration max) {
  /** Half a second, then 1, 2, 4 … up to 30 seconds. */
  static final Backoff DEFAULT = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));

  Backoff {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(max, "max");
    if (first.isNegative() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("need 0 <= first <= max");
    }
  }

  /** The wait before the next start after {@code failures} failures in a row (0: none). */
  Duration delay(int failures) {
    if (failures <= 0) {
      return Duration.ZERO;
    }
    int doublings = Math.min(failures - 1, 30);
    long millis = first.toMillis() << doublings;
    return millis < 0 || millis > max.toMillis() ? max : Duration.ofMillis(millis);
  }
}
