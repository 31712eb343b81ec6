package dev.skillport.loader.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.CoreSchema;

class PlainScalarResolutionTest {
  private static final ScalarResolver CORE = new CoreSchema().getScalarResolver();

  /** Characters that matter to the core schema's patterns, plus a few that do not. */
  private static final String ALPHABET = "tTfFnNrueaslLUoxX0179+-._~ <$eEiI{}:a";

  private static final List<String> LITERALS =
      List.of(
          "",
          " ",
          "~",
          "null",
          "Null",
          "NULL",
          "nULL",
          "true",
          "True",
          "TRUE",
          "tRUE",
          "false",
          "False",
          "FALSE",
          "falsey",
          "nully",
          "truest",
          "0",
          "-0",
          "+12",
          "0o17",
          "0o8",
          "0x1F",
          "0xG",
          "1_000",
          "1.5",
          ".5",
          "-.5",
          "1e3",
          "1.e-3",
          ".inf",
          "-.Inf",
          "+.INF",
          ".nan",
          ".NaN",
          "nan",
          "inf",
          "<<",
          "<",
          "${HOME}",
          "${X:-y}",
          "$x",
          "object",
          "string",
          "balanced",
          "exact",
          "fast",
          "Number",
          "Truth",
          "nothing",
          "yes",
          "no",
          "on",
          "off");

  @Test
  void resolvePlain_literalsAndEveryShortCombination_matchTheCoreSchemaResolver() {
    List<String> inputs = new ArrayList<>(LITERALS);
    combinations("", 3, inputs);
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int n = random.nextInt(9); n >= 0; n--) {
        sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      inputs.add(sb.toString());
    }

    int nonStrings = 0;
    for (String value : inputs) {
      Tag expected = CORE.resolve(value, true);
      assertThat(SafeYaml.resolvePlain(value)).as("'%s'", value).isEqualTo(expected);
      if (!Tag.STR.equals(expected)) {
        nonStrings++;
      }
    }
    // The inputs must exercise every outcome, not just strings.
    assertThat(nonStrings).isGreaterThan(500);
  }

  @Test
  void plainScalar_digitsAndBooleans_giveTheResolversNodes() {
    List<String> inputs =
        new ArrayList<>(
            List.of(
                "0",
                "007",
                "42",
                "999999999999999999",
                "9223372036854775807",
                "9223372036854775808",
                "12345678901234567890",
                "true",
                "false",
                "True",
                "truex",
                "1_0",
                "-5"));
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 2_000; i++) {
      inputs.add(Long.toString(random.nextLong() >>> random.nextInt(64)));
    }
    for (String value : inputs) {
      JsonNode expected = SafeYaml.plainScalarByResolver(value);
      JsonNode actual = SafeYaml.plainScalar(value);
      assertThat(actual).as("'%s'", value).isEqualTo(expected);
      assertThat(actual.getClass()).as("'%s'", value).isEqualTo(expected.getClass());
    }
  }

  private static void combinations(String prefix, int length, List<String> out) {
    out.add(prefix);
    if (prefix.length() == length) {
      return;
    }
    for (int i = 0; i < ALPHABET.length(); i++) {
      combinations(prefix + ALPHABET.charAt(i), length, out);
    }
  }
}
