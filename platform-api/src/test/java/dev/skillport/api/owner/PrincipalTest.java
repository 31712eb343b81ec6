package dev.skillport.api.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PrincipalTest {
  private static final Principal ALICE = Principal.of("token:aaaaaaaaaaaa");
  private static final Principal BOB = Principal.of("token:bbbbbbbbbbbb");
  private static final Principal OPERATOR = new Principal("token:cccccccccccc", true);

  @Test
  void owns_itsOwnName_only() {
    assertThat(ALICE.owns("token:aaaaaaaaaaaa")).isTrue();
    assertThat(ALICE.owns("token:bbbbbbbbbbbb")).isFalse();
    assertThat(BOB.owns("token:aaaaaaaaaaaa")).isFalse();
  }

  @Test
  void owns_stateWithoutOwner_onlyAsTheLocalCaller() {
    assertThat(Principal.LOCAL.owns(null)).isTrue();
    assertThat(ALICE.owns(null)).as("no token reaches state without an owner").isFalse();
    assertThat(Principal.LOCAL.owns("token:aaaaaaaaaaaa")).isFalse();
  }

  @Test
  void owns_asAnOperator_stillItsOwnOnly() {
    assertThat(OPERATOR.owns("token:aaaaaaaaaaaa")).isFalse();
    assertThat(OPERATOR.owns("token:cccccccccccc")).isTrue();
  }

  @Test
  void sees_everyonesEntries_asAnOperatorOnly() {
    assertThat(OPERATOR.sees("token:aaaaaaaaaaaa")).isTrue();
    assertThat(OPERATOR.sees(null)).isTrue();
    assertThat(BOB.sees("token:aaaaaaaaaaaa")).isFalse();
    assertThat(BOB.sees("token:bbbbbbbbbbbb")).isTrue();
  }

  @Test
  void of_null_isTheLocalCaller_andABlankNameIsRefused() {
    assertThat(Principal.of(null)).isSameAs(Principal.LOCAL);
    assertThatThrownBy(() -> Principal.of(" ")).isInstanceOf(IllegalArgumentException.class);
  }
}
