package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void delay_doublesPerFailureUpToTheMaximum() {
    Backoff b = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(5));

    assertThat(b.delay(0)).isZero();
    assertThat(b.delay(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(b.delay(2)).isEqualTo(Duration.ofSeconds(1));
    assertThat(b.delay(4)).isEqualTo(Duration.ofSeconds(4));
    assertThat(b.delay(5)).isEqualTo(Duration.ofSeconds(5));
    assertThat(b.delay(1_000)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void constructor_maxBelowFirst_isRefused() {
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
