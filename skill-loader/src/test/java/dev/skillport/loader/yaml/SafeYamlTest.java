package dev.skillport.loader.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SafeYamlTest {
  private static final YamlLimits LIMITS = YamlLimits.FRONTMATTER;

  private static JsonNode parsed(String yaml) {
    YamlResult result = SafeYaml.parse(yaml, LIMITS, 0);
    assertThat(result).isInstanceOf(YamlResult.Parsed.class);
    return ((YamlResult.Parsed) result).document().root();
  }

  private static YamlProblem rejected(String yaml, YamlLimits limits) {
    YamlResult result = SafeYaml.parse(yaml, limits, 0);
    assertThat(result).isInstanceOf(YamlResult.Rejected.class);
    return ((YamlResult.Rejected) result).problem();
  }

  @Test
  void parse_mappingWithScalars_keepsTypesAndOrder() {
    JsonNode root = parsed("b: 1\na: two\nc: true\nd: 1.5\ne: ~\nf: 0x1F\n");
    assertThat(root.fieldNames()).toIterable().containsExactly("b", "a", "c", "d", "e", "f");
    assertThat(root.get("b").isIntegralNumber()).isTrue();
    assertThat(root.get("b").longValue()).isEqualTo(1);
    assertThat(root.get("a").asText()).isEqualTo("two");
    assertThat(root.get("c").booleanValue()).isTrue();
    assertThat(root.get("d").doubleValue()).isEqualTo(1.5);
    assertThat(root.get("e").isNull()).isTrue();
    assertThat(root.get("f").longValue()).isEqualTo(31);
  }

  @Test
  void parse_quotedNumbers_stayStrings() {
    JsonNode root = parsed("a: '12'\nb: \"true\"\n");
    assertThat(root.get("a").isTextual()).isTrue();
    assertThat(root.get("b").isTextual()).isTrue();
  }

  @Test
  void parse_nonSpecificTag_isString() {
    JsonNode root = parsed("a: ! 12\nb: !!str 13\n");
    assertThat(root.get("a").isTextual()).as("'! 12' is a string").isTrue();
    assertThat(root.get("a").asText()).isEqualTo("12");
    assertThat(root.get("b").isTextual()).isTrue();
  }

  @Test
  void parse_bigInteger_keepsPrecision() {
    JsonNode root = parsed("n: 123456789012345678901234567890\n");
    assertThat(root.get("n").bigIntegerValue().toString())
        .isEqualTo("123456789012345678901234567890");
  }

  @Test
  void parse_emptyText_isNullDocument() {
    assertThat(parsed("").isNull()).isTrue();
  }

  @Test
  void parse_lineOffset_isAddedToPositions() {
    YamlResult result = SafeYaml.parse("a: 1\nb:\n  c: x\n", LIMITS, 10);
    YamlDocument doc = ((YamlResult.Parsed) result).document();
    assertThat(doc.locate("/a").line()).isEqualTo(11);
    assertThat(doc.locate("/b/c")).isEqualTo(new YamlLocation(13, 3));
    assertThat(doc.locate("/b/c/missing/deeper")).isEqualTo(new YamlLocation(13, 3));
  }

  @Test
  void parse_syntaxError_reportsLineWithOffset() {
    YamlProblem p = rejected("a: 1\nb: [unclosed\n", LIMITS);
    assertThat(p.kind()).isEqualTo(YamlProblem.Kind.SYNTAX);
    assertThat(p.location().line()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void parse_duplicateKey_isRejectedAtSecondKey() {
    YamlProblem p = rejected("a: 1\nb: 2\na: 3\n", LIMITS);
    assertThat(p.kind()).isEqualTo(YamlProblem.Kind.DUPLICATE_KEY);
    assertThat(p.location().line()).isEqualTo(3);
    assertThat(p.message()).contains("'a'");
  }

  @Test
  void parse_duplicateKeyQuotedAndPlain_isRejected() {
    assertThat(rejected("a: 1\n\"a\": 2\n", LIMITS).kind())
        .isEqualTo(YamlProblem.Kind.DUPLICATE_KEY);
  }

  @Test
  void parse_duplicateKeyInNestedMapping_isRejected() {
    assertThat(rejected("m:\n  x: 1\n  x: 2\n", LIMITS).kind())
        .isEqualTo(YamlProblem.Kind.DUPLICATE_KEY);
  }

  @Test
  void parse_sameKeyInDifferentMappings_isAccepted() {
    JsonNode root = parsed("a: {x: 1}\nb: {x: 2}\n");
    assertThat(root.get("b").get("x").intValue()).isEqualTo(2);
  }

  @Test
  void parse_complexKey_isRejected() {
    assertThat(rejected("? [a, b]\n: 1\n", LIMITS).kind())
        .isEqualTo(YamlProblem.Kind.KEY_NOT_STRING);
  }

  @Test
  void parse_aliasAsKey_isRejected() {
    assertThat(rejected("a: &k key\n*k : 1\n", LIMITS).kind())
        .isEqualTo(YamlProblem.Kind.KEY_NOT_STRING);
  }

  @Test
  void parse_fewAliases_shareAnchoredValue() {
    JsonNode root = parsed("base: &b {x: 1}\ncopy: *b\n");
    assertThat(root.get("copy").get("x").intValue()).isEqualTo(1);
  }

  @Test
  void parse_unknownAlias_isSyntax() {
    assertThat(rejected("a: *nope\n", LIMITS).kind()).isEqualTo(YamlProblem.Kind.SYNTAX);
  }

  @Test
  void parse_selfReferencingAlias_isRejected() {
    YamlProblem p = rejected("a: &x [1, *x]\n", LIMITS);
    assertThat(p.kind()).isEqualTo(YamlProblem.Kind.SYNTAX);
    assertThat(p.message()).contains("itself");
  }

  @Test
  void parse_severalDocuments_isRejected() {
    assertThat(rejected("a: 1\n---\nb: 2\n", LIMITS).kind()).isEqualTo(YamlProblem.Kind.SYNTAX);
  }

  @Test
  void parse_textOverCharLimit_isTooLargeBeforeParsing() {
    YamlLimits small = new YamlLimits(10, 50, 64, 1000);
    YamlProblem p = rejected("a: 12345678901234567890\n", small);
    assertThat(p.kind()).isEqualTo(YamlProblem.Kind.TOO_LARGE);
  }

  @Test
  void parse_tooManyValues_isTooLarge() {
    YamlLimits small = new YamlLimits(100_000, 50, 64, 100);
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < 200; i++) {
      sb.append(i).append(',');
    }
    sb.append("0]");
    assertThat(rejected(sb.toString(), small).kind()).isEqualTo(YamlProblem.Kind.TOO_LARGE);
  }

  @Test
  void parse_depthAtLimit_isAccepted() {
    YamlLimits limits = new YamlLimits(100_000, 50, 5, 1000);
    JsonNode root = parsedWith("[[[[[1]]]]]", limits);
    assertThat(root.get(0).get(0).get(0).get(0).get(0).intValue()).isEqualTo(1);
    assertThat(rejected("[[[[[[1]]]]]]", limits).kind()).isEqualTo(YamlProblem.Kind.DEPTH);
  }

  private static JsonNode parsedWith(String yaml, YamlLimits limits) {
    YamlResult result = SafeYaml.parse(yaml, limits, 0);
    assertThat(result).isInstanceOf(YamlResult.Parsed.class);
    return ((YamlResult.Parsed) result).document().root();
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_tenThousandNestedFlowSequences_isDepthLimit() {
    String yaml = "a: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";
    YamlProblem p = rejected(yaml, LIMITS);
    assertThat(p.kind()).isEqualTo(YamlProblem.Kind.DEPTH);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_tenThousandUnclosedFlowSequences_isDepthLimit() {
    YamlProblem p = rejected("[".repeat(10_000), LIMITS);
    assertThat(p.kind()).isEqualTo(YamlProblem.Kind.DEPTH);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_tenThousandNestedFlowMappings_isDepthLimit() {
    String yaml = "{a: ".repeat(10_000) + "1" + "}".repeat(10_000);
    assertThat(rejected(yaml, LIMITS).kind()).isEqualTo(YamlProblem.Kind.DEPTH);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_tenThousandNestedBlockSequences_isDepthLimit() {
    String yaml = "- ".repeat(10_000) + "x\n";
    assertThat(rejected(yaml, LIMITS).kind()).isEqualTo(YamlProblem.Kind.DEPTH);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_deeplyIndentedBlockMappings_isDepthLimit() {
    // 3,000 levels of indentation is ~4.5 M characters; the limits allow the text so that the
    // depth check is what refuses it.
    YamlLimits roomy = new YamlLimits(8 * 1024 * 1024, 50, 64, 100_000);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 3_000; i++) {
      sb.append(" ".repeat(i)).append("k:\n");
    }
    assertThat(rejected(sb.toString(), roomy).kind()).isEqualTo(YamlProblem.Kind.DEPTH);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_billionLaughs_isAliasLimit() {
    StringBuilder sb =
        new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    char prev = 'a';
    for (char c = 'b'; c <= 'i'; c++) {
      sb.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        sb.append(i == 0 ? "" : ",").append('*').append(prev);
      }
      sb.append("]\n");
      prev = c;
    }
    assertThat(rejected(sb.toString(), LIMITS).kind()).isEqualTo(YamlProblem.Kind.ALIASES);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_fewAliasesExpandingHugely_isAliasLimit() {
    // 5 levels x 10 aliases = 50 aliases (within the count) but 10^5 expanded values.
    StringBuilder sb = new StringBuilder("l0: &l0 [1,2,3,4,5,6,7,8,9,10]\n");
    for (int level = 1; level <= 5; level++) {
      sb.append("l").append(level).append(": &l").append(level).append(" [");
      for (int i = 0; i < 10; i++) {
        sb.append(i == 0 ? "" : ",").append("*l").append(level - 1);
      }
      sb.append("]\n");
    }
    YamlProblem p = rejected(sb.toString(), LIMITS);
    assertThat(p.kind()).isEqualTo(YamlProblem.Kind.ALIASES);
    assertThat(p.message()).contains("expand");
  }

  @Test
  void parse_aliasCountOverLimit_isAliasLimit() {
    YamlLimits limits = new YamlLimits(100_000, 2, 64, 1000);
    assertThat(rejected("a: &a 1\nb: [*a, *a, *a]\n", limits).kind())
        .isEqualTo(YamlProblem.Kind.ALIASES);
  }
}
