package dev.skillport.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ArgumentsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Arguments args(String json) throws Exception {
    return Arguments.of(JSON.readTree(json));
  }

  @Test
  void getters_presentValuesOfTheRightType_returned() throws Exception {
    Arguments a = args("{\"s\":\"x\",\"i\":42,\"d\":2.5,\"b\":true,\"whole\":3.0}");

    assertThat(a.string("s")).isEqualTo("x");
    assertThat(a.integer("i")).isEqualTo(42L);
    assertThat(a.integer("whole")).isEqualTo(3L);
    assertThat(a.number("d")).isEqualTo(2.5);
    assertThat(a.number("i")).isEqualTo(42.0);
    assertThat(a.bool("b")).isTrue();
    assertThat(a.optionalString("s")).hasValue("x");
    assertThat(a.has("s")).isTrue();
  }

  @Test
  void getters_absentOrNull_defaultsAndEmpty() throws Exception {
    Arguments a = args("{\"n\":null}");

    assertThat(a.string("n", "dflt")).isEqualTo("dflt");
    assertThat(a.integer("missing", 7)).isEqualTo(7L);
    assertThat(a.number("missing", 1.5)).isEqualTo(1.5);
    assertThat(a.bool("missing", true)).isTrue();
    assertThat(a.optionalString("n")).isEmpty();
    assertThat(a.optional("missing")).isEmpty();
    assertThat(a.has("n")).isFalse();
  }

  @Test
  void requiredGetter_missing_throwsNamingTheArgument() throws Exception {
    Arguments a = args("{}");

    assertThatThrownBy(() -> a.string("path"))
        .isInstanceOfSatisfying(
            ArgumentException.class, e -> assertThat(e.argument()).isEqualTo("path"))
        .hasMessage("missing required argument 'path'");
  }

  @Test
  void getters_wrongType_throwEvenWithADefault() throws Exception {
    Arguments a = args("{\"s\":\"12\",\"f\":1.5,\"b\":\"true\"}");

    assertThatThrownBy(() -> a.integer("s"))
        .hasMessage("argument 's' must be an integer, got string");
    assertThatThrownBy(() -> a.integer("f", 0)).hasMessageContaining("must be an integer");
    assertThatThrownBy(() -> a.bool("b", false)).hasMessageContaining("must be a boolean");
    assertThatThrownBy(() -> a.string("f")).hasMessageContaining("must be a string");
    assertThatThrownBy(() -> a.number("s")).hasMessageContaining("must be a number");
  }

  @Test
  void of_notAnObject_readsAsNoArguments() throws Exception {
    Arguments a = Arguments.of(JSON.readTree("[1,2]"));

    assertThat(a.json().isObject()).isTrue();
    assertThat(a.has("0")).isFalse();
  }
}
