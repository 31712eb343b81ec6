package dev.skillport.model.skill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void fromSpec_fullBlock_readsEveryField() throws Exception {
    RetryPolicy policy =
        RetryPolicy.fromSpec(
            JSON.readTree(
                "{\"max_attempts\":4,\"backoff\":\"Exponential\",\"initial_delay_ms\":100,"
                    + "\"max_delay_ms\":2000,\"jitter\":true}"));

    assertThat(policy)
        .isEqualTo(new RetryPolicy(4, RetryPolicy.Backoff.EXPONENTIAL, 100, 2000, true));
  }

  @Test
  void fromSpec_absentOrNotAMapping_isNone() {
    assertThat(RetryPolicy.fromSpec(null)).isSameAs(RetryPolicy.NONE);
    assertThat(RetryPolicy.fromSpec(JsonNodeFactory.instance.textNode("3")))
        .isSameAs(RetryPolicy.NONE);
  }

  @Test
  void fromSpec_unknownBackoffOrZeroAttempts_isRefused() throws Exception {
    assertThatThrownBy(() -> RetryPolicy.fromSpec(JSON.readTree("{\"backoff\":\"random\"}")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RetryPolicy.fromSpec(JSON.readTree("{\"max_attempts\":0}")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
