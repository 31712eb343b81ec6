package dev.skillport.loader.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.FrozenJson;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class YamlSubsetReaderTest {
  private static final YamlLimits LIMITS = YamlLimits.SIBLING;

  /** Reads {@code yaml} with the subset reader, which must accept it and agree with the engine. */
  private static YamlDocument accepted(String yaml) {
    YamlDocument quick = YamlSubsetReader.read(yaml, LIMITS, 0);
    assertThat(quick).as("the subset reader declined:\n%s", yaml).isNotNull();
    YamlSubsetDifferentialTest.compare(yaml, 0, LIMITS, yaml);
    return quick;
  }

  private static JsonNode root(String yaml) {
    return accepted(yaml).root();
  }

  @Test
  void read_quotedEscapes_decodeLikeTheEngine() {
    JsonNode root = root("a: \"tab\\there \\\"q\\\" \\\\ \\u00e9 \\x41 \\U0001F600 \\/\"\n");
    assertThat(root.get("a").textValue()).isEqualTo("tab\there \"q\" \\ é A 😀 /");
  }

  @Test
  void read_everyEscapeLetter_agreesWithTheEngineOrDeclines() {
    int accepted = 0;
    for (char c = 0x21; c < 0x7F; c++) {
      String yaml = "a: \"q\\" + c + "00e9q\"\n";
      if (YamlSubsetDifferentialTest.compare(yaml, 0, LIMITS, yaml)) {
        accepted++;
      }
    }
    assertThat(accepted).as("the common escapes are read").isGreaterThan(15);
  }

  @Test
  void read_singleQuotedDoubledQuote_isOneQuote() {
    assertThat(root("a: 'it''s'\n").get("a").textValue()).isEqualTo("it's");
  }

  @Test
  void read_hashInsideQuotesOrWord_isNotAComment() {
    JsonNode root = root("a: \"x # y\"\nb: 'p # q' # real comment\nc: c#sharp # comment\n");
    assertThat(root.get("a").textValue()).isEqualTo("x # y");
    assertThat(root.get("b").textValue()).isEqualTo("p # q");
    assertThat(root.get("c").textValue()).isEqualTo("c#sharp");
  }

  @Test
  void read_trailingSpaces_areDroppedFromPlainScalarsOnly() {
    JsonNode root = root("a: plain   \nb: ' kept '  \n");
    assertThat(root.get("a").textValue()).isEqualTo("plain");
    assertThat(root.get("b").textValue()).isEqualTo(" kept ");
  }

  @Test
  void read_keysAndValuesWithColons_splitAtColonSpace() {
    JsonNode root = root("url: http://example.com:8080/x\na:b: c\n\"q: k\": v\n");
    assertThat(root.get("url").textValue()).isEqualTo("http://example.com:8080/x");
    assertThat(root.get("a:b").textValue()).isEqualTo("c");
    assertThat(root.get("q: k").textValue()).isEqualTo("v");
  }

  @Test
  void read_emptyValuesAndTilde_areNull() {
    JsonNode root = root("a:\nb: ~\nc: null\nd: 'null'\n");
    assertThat(root.get("a").isNull()).isTrue();
    assertThat(root.get("b").isNull()).isTrue();
    assertThat(root.get("c").isNull()).isTrue();
    assertThat(root.get("d").isTextual()).isTrue();
  }

  @Test
  void read_coreSchemaScalars_areTypedLikeTheEngine() {
    JsonNode root =
        root(
            "t: true\nf: False\ni: -12\nh: 0x1F\no: 0o17\nb: 123456789012345678901234567890\n"
                + "d: 1.5e3\ninf: -.inf\nnan: .NaN\ny: yes\nv: 1.0.0\n");
    assertThat(root.get("t").booleanValue()).isTrue();
    assertThat(root.get("f").isBoolean()).isTrue();
    assertThat(root.get("i").longValue()).isEqualTo(-12);
    assertThat(root.get("h").longValue()).isEqualTo(31);
    assertThat(root.get("o").longValue()).isEqualTo(15);
    assertThat(root.get("b").isBigInteger()).isTrue();
    assertThat(root.get("d").doubleValue()).isEqualTo(1500.0);
    assertThat(root.get("inf").doubleValue()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(root.get("nan").doubleValue()).isNaN();
    assertThat(root.get("y").textValue()).as("yes is a string in YAML 1.2").isEqualTo("yes");
    assertThat(root.get("v").textValue()).isEqualTo("1.0.0");
  }

  @Test
  void read_unicodeBeforeAValue_countsColumnsInCodePoints() {
    YamlDocument doc = accepted("a: [😀😀, b]\n");
    // Each emoji is two chars but one column.
    assertThat(doc.locate("/a/1")).isEqualTo(new YamlLocation(1, 9));
  }

  @Test
  void read_nestedBlocksAndFlow_recordPositionsLikeTheEngine() {
    String yaml =
        "tools:\n"
            + "  - name: run   # first\n"
            + "    input_schema:\n"
            + "      type: object\n"
            + "      properties: {n: {type: integer}, m: [a, 'b']}\n"
            + "    tags:\n"
            + "    - x\n"
            + "    -   y: 1\n"
            + "        z: 2\n"
            + "  -\n"
            + "    name: other\n";
    YamlDocument doc = accepted(yaml);
    assertThat(doc.locate("/tools/0")).isEqualTo(new YamlLocation(2, 5));
    assertThat(doc.locate("/tools/0/input_schema/properties/n/type"))
        .isEqualTo(new YamlLocation(5, 24));
    assertThat(doc.locate("/tools/0/tags/1/z")).isEqualTo(new YamlLocation(9, 9));
    assertThat(doc.locate("/tools/1")).isEqualTo(new YamlLocation(11, 5));
  }

  @Test
  void read_blockScalars_foldAndChompLikeTheEngine() {
    JsonNode root =
        root(
            "lit: |\n  one\n    two\n\n  three\n"
                + "strip: |-\n  kept # not a comment\n\n"
                + "fold: >\n  a\n  b\n\n  c\n"
                + "foldStrip: >- # comment\n  x\n  y\n"
                + "after: 1\n"
                + "last: |\n  end");
    assertThat(root.get("lit").textValue()).isEqualTo("one\n  two\n\nthree\n");
    assertThat(root.get("strip").textValue()).isEqualTo("kept # not a comment");
    assertThat(root.get("fold").textValue()).isEqualTo("a b\nc\n");
    assertThat(root.get("foldStrip").textValue()).isEqualTo("x y");
    assertThat(root.get("after").intValue()).isEqualTo(1);
    assertThat(root.get("last").textValue()).as("the end of text ends the line").isEqualTo("end\n");
  }

  @Test
  void locate_keysWithSlashAndTilde_areFoundByTheirEscapedPointers() {
    YamlDocument doc = accepted("a/b:\n  c~d: 1\n  x: [p, q]\nc~d: 2\nc: {d: 3}\n");
    assertThat(doc.locate("/a~1b/c~0d")).isEqualTo(new YamlLocation(2, 3));
    assertThat(doc.locate("/c~0d")).isEqualTo(new YamlLocation(4, 1));
    assertThat(doc.locate("/a~1b/x/1")).isEqualTo(new YamlLocation(3, 10));
    assertThat(doc.locate("/a/b")).as("an unescaped slash is two tokens").isEqualTo(doc.locate(""));
  }

  @Test
  void read_lineOffset_isAddedToEveryLine() {
    YamlDocument doc = YamlSubsetReader.read("a: 1\nb:\n  c: x\n", LIMITS, 1);
    assertThat(doc).isNotNull();
    assertThat(doc.locate("/b/c")).isEqualTo(new YamlLocation(4, 3));
  }

  @Test
  void read_bareDocumentStartLine_isSkipped() {
    assertThat(root("--- # tools\nname: x\n").get("name").textValue()).isEqualTo("x");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: |+\n  kept\n",
        "a: |2\n  text\n",
        "a: >\n  folded\n    more\n",
        "a: |\n\n  after blank\n",
        "- |\n  in a sequence\n",
        "a: multi\n  line\n",
        "a: \"multi\n  line\"\n",
        "? a\n: b\n",
        "a: 1\na: 2\n",
        "a:\n\tb: 1\n",
        "a: 1\r\nb: 2\r\n",
        "\uFEFFa: 1\n",
        "%YAML 1.2\n---\na: 1\n",
        "a: 1\n---\nb: 2\n",
        "a: 1\n...\n",
        "just a scalar\n",
        "",
        "# only a comment\n",
        "a: [b, c,]\n",
        "a: {b: 1, b: 2}\n",
        "a: [http://x]\n",
        "- - nested\n",
        "-\n- x\n",
        "a: b: c\n",
        "a: 'unterminated\n",
        "a: \"bad \\q escape\"\n",
        "a: \"line separator \\L refused by the engine\"\n",
        "a: \"x\" trailing\n",
        "a: @reserved\n",
      })
  void read_outsideTheSubset_declines(String yaml) {
    assertThat(YamlSubsetReader.read(yaml, LIMITS, 0)).isNull();
    YamlSubsetDifferentialTest.compare(yaml, 0, LIMITS, yaml);
  }

  @Test
  void read_deeperThanTheLimit_declinesSoTheEngineReportsIt() {
    YamlLimits shallow = new YamlLimits(1 << 20, 50, 2, 1000);
    assertThat(YamlSubsetReader.read("a:\n  b: 1\n", shallow, 0)).isNotNull();
    assertThat(YamlSubsetReader.read("a:\n  b: [1]\n", shallow, 0)).isNull();
    YamlResult result = SafeYaml.parse("a:\n  b: [1]\n", shallow, 0);
    assertThat(((YamlResult.Rejected) result).problem().kind()).isEqualTo(YamlProblem.Kind.DEPTH);
  }

  @Test
  void read_moreValuesThanTheLimit_declinesSoTheEngineReportsIt() {
    // The mapping, the sequence and its items each count as a value.
    YamlLimits small = new YamlLimits(1 << 20, 50, 64, 4);
    assertThat(YamlSubsetReader.read("a: [1, 2]\n", small, 0)).isNotNull();
    assertThat(YamlSubsetReader.read("a: [1, 2, 3]\n", small, 0)).isNull();
    YamlResult result = SafeYaml.parse("a: [1, 2, 3]\n", small, 0);
    assertThat(((YamlResult.Rejected) result).problem().kind())
        .isEqualTo(YamlProblem.Kind.TOO_LARGE);
  }

  @Test
  void read_duplicateKey_declinesSoTheEngineReportsItsPosition() {
    YamlResult result = SafeYaml.parse("a: 1\nb:\n  c: 1\n  c: 2\n", LIMITS, 0);
    YamlProblem problem = ((YamlResult.Rejected) result).problem();
    assertThat(problem.kind()).isEqualTo(YamlProblem.Kind.DUPLICATE_KEY);
    assertThat(problem.location()).isEqualTo(new YamlLocation(4, 3));
  }

  @Test
  void read_largeMappingWithDuplicateKey_declines() {
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      yaml.append("k").append(i).append(": ").append(i).append('\n');
    }
    assertThat(root(yaml.toString()).size()).isEqualTo(40);
    yaml.append("k7: again\n");
    assertThat(YamlSubsetReader.read(yaml.toString(), LIMITS, 0)).isNull();
    assertThat(YamlSubsetReader.read("{a: 1, b: 2, a: 3}\n", LIMITS, 0)).isNull();
  }

  @Test
  void read_tree_isFrozenThroughout() {
    JsonNode root = root("a:\n  b: [1, {c: d}]\n  e:\n    - f\n");
    assertThat(FrozenJson.isFrozen(root)).isTrue();
    assertThat(FrozenJson.isFrozen(root.get("a"))).isTrue();
    assertThat(FrozenJson.isFrozen(root.at("/a/b"))).isTrue();
    assertThat(FrozenJson.isFrozen(root.at("/a/b/1"))).isTrue();
    assertThat(FrozenJson.isFrozen(root.at("/a/e"))).isTrue();
    assertThatThrownBy(() -> ((ObjectNode) root.get("a")).put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ((ArrayNode) root.at("/a/b")).set(0, root))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void read_shortTextsDifferingInOneChar_areReadApart() {
    StringBuilder yaml = new StringBuilder();
    String base = "abcdefghijklmnopqrstuvwx";
    List<String> texts = new ArrayList<>();
    for (int length : new int[] {1, 7, 8, 9, 16, 17, 24, 25}) {
      String text = base.substring(0, Math.min(length, base.length())) + (length > 24 ? "y" : "");
      texts.add(text);
      for (int at : new int[] {0, 7, 8, 15, 16, 23}) {
        if (at < text.length()) {
          texts.add(text.substring(0, at) + 'Z' + text.substring(at + 1));
        }
      }
    }
    texts.add("ключ");
    texts.add("clé");
    texts.add("cle\u0301");
    for (int round = 0; round < 2; round++) {
      yaml.setLength(0);
      for (int i = 0; i < texts.size(); i++) {
        yaml.append(texts.get(i)).append(": ").append(texts.get(texts.size() - 1 - i)).append('\n');
      }
      JsonNode root = root(yaml.toString());
      for (int i = 0; i < texts.size(); i++) {
        assertThat(root.get(texts.get(i)).textValue()).isEqualTo(texts.get(texts.size() - 1 - i));
      }
    }
  }
}
