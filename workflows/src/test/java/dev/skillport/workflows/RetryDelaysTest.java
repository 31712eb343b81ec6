package dev.skillport.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.RetryPolicy;
import dev.skillport.model.skill.RetryPolicy.Backoff;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RetryDelaysTest {
  private static long[] delays(RetryPolicy p, int n, double random) {
    return IntStream.rangeClosed(1, n).mapToLong(i -> RetryDelays.delayMs(p, i, random)).toArray();
  }

  @Test
  void fixed_sameDelayEveryTime() {
    assertThat(delays(new RetryPolicy(5, Backoff.FIXED, 250, 0, false), 4, 0))
        .containsExactly(250, 250, 250, 250);
  }

  @Test
  void linear_growsByTheInitialDelay() {
    assertThat(delays(new RetryPolicy(5, Backoff.LINEAR, 100, 0, false), 4, 0))
        .containsExactly(100, 200, 300, 400);
  }

  @Test
  void exponential_doublesAndIsCappedByMaxDelay() {
    assertThat(delays(new RetryPolicy(9, Backoff.EXPONENTIAL, 100, 1000, false), 6, 0))
        .containsExactly(100, 200, 400, 800, 1000, 1000);
  }

  @Test
  void exponential_manyAttempts_saturatesInsteadOfOverflowing() {
    RetryPolicy uncapped = new RetryPolicy(200, Backoff.EXPONENTIAL, 1000, 0, false);
    RetryPolicy capped = new RetryPolicy(200, Backoff.EXPONENTIAL, 1000, 60_000, false);

    assertThat(RetryDelays.delayMs(uncapped, 100, 0)).isEqualTo(Long.MAX_VALUE);
    assertThat(RetryDelays.delayMs(capped, 100, 0)).isEqualTo(60_000);
    assertThat(RetryDelays.delayMs(capped, 54, 0)).isEqualTo(60_000);
  }

  @Test
  void jitter_drawsFromTheUpperHalfOfTheDelay() {
    RetryPolicy p = new RetryPolicy(5, Backoff.EXPONENTIAL, 1000, 0, true);

    assertThat(RetryDelays.delayMs(p, 2, 0.0)).isEqualTo(2000);
    assertThat(RetryDelays.delayMs(p, 2, 0.5)).isEqualTo(1500);
    assertThat(RetryDelays.delayMs(p, 2, 0.999)).isBetween(1001L, 1003L);
  }

  @Test
  void zeroInitialDelay_neverWaits() {
    assertThat(delays(new RetryPolicy(5, Backoff.EXPONENTIAL, 0, 0, true), 3, 0.7))
        .containsExactly(0, 0, 0);
  }
}
