package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.loader.testing.RepoFiles;
import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.loader.yaml.YamlResult;
import dev.skillport.model.schema.SchemaPrecheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Checks {@link SchemaPrecheck} against the real validator: over every mapping found in the test
 * fixtures' and samples' YAML files, and seeded mutations of them, a "certainly valid" answer for a
 * shipped schema must always be one the full validator agrees with.
 */
class SchemaPrecheckTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long SEED = Long.getLong("skillport.precheck.seed", 0x5C4E_AAL);

  private static final List<Path> ROOTS =
      List.of(Path.of("src/test/resources"), Path.of("../samples"));

  private static final JsonNode[] ODD_VALUES = {
    NODES.nullNode(),
    NODES.textNode(""),
    NODES.textNode("x"),
    NODES.textNode("😀"),
    NODES.numberNode(0L),
    NODES.numberNode(1L),
    NODES.numberNode(-1L),
    NODES.numberNode(604_801L),
    NODES.numberNode(1.0),
    // Not NaN or infinity: the full validator itself throws on them when a bound applies.
    NODES.numberNode(2.5),
    NODES.booleanNode(true),
    NODES.arrayNode(),
    NODES.arrayNode().add("a").add(3),
    NODES.objectNode(),
    NODES.objectNode().put("type", "string"),
  };

  private static final String[] ODD_KEYS = {
    "name",
    "description",
    "tools",
    "groups",
    "type",
    "title",
    "read_only_hint",
    "Hint",
    "x_hint",
    "hints",
    "unknown",
    "input_schema",
    "timeout_hint_secs",
    "next-tools",
    "on-success",
    "template",
    "uri",
    "steps",
    "arguments",
    "default-active",
    "source_file",
    "handler",
    "execution"
  };

  @Test
  void certainlyValid_onFixturesAndMutations_neverDisagreesWithTheValidator() throws IOException {
    List<JsonNode> instances = corpus();
    SplittableRandom random = new SplittableRandom(SEED);
    int originals = instances.size();
    for (int i = 0; i < originals * 3; i++) {
      instances.add(mutate(instances.get(random.nextInt(originals)), random));
    }
    Map<SiblingSchema, int[]> counts = new EnumMap<>(SiblingSchema.class);
    for (SiblingSchema schema : SiblingSchema.values()) {
      if (schema == SiblingSchema.META_2020_12) {
        continue;
      }
      int[] c = counts.computeIfAbsent(schema, s -> new int[3]);
      for (JsonNode instance : instances) {
        boolean quick = schema.validate(instance).isEmpty();
        boolean full = schema.validateFully(instance).isEmpty();
        if (quick) {
          assertThat(full)
              .as("%s: the precheck passed an invalid instance %s", schema, instance)
              .isTrue();
        }
        if (full) {
          c[0]++;
        }
        if (schema.certainlyValid(instance)) {
          c[1]++;
        }
      }
    }
    // The precheck must actually cover the common entries, or it speeds nothing up.
    for (SiblingSchema s :
        List.of(
            SiblingSchema.TOOLS_FILE,
            SiblingSchema.TOOL,
            SiblingSchema.GROUPS_FILE,
            SiblingSchema.GROUP)) {
      int[] c = counts.get(s);
      assertThat(c[1]).as("%s: valid %d, prechecked %d", s, c[0], c[1]).isGreaterThan(c[0] / 2);
    }
  }

  @Test
  void certainlyValid_unknownKeyword_isNeverCertain() throws IOException {
    JsonNode schema =
        new ObjectMapper()
            .readTree("{\"$defs\": {\"a\": {\"type\": \"object\", \"if\": {}, \"then\": {}}}}");
    SchemaPrecheck precheck = new SchemaPrecheck(schema, "/$defs/a");
    assertThat(precheck.certainlyValid(NODES.objectNode())).isFalse();
    SchemaPrecheck plain = new SchemaPrecheck(schema, "");
    assertThat(plain.certainlyValid(NODES.objectNode())).isTrue();
  }

  @Test
  void certainlyValid_recursiveReferenceToASchemaWithUnknownKeyword_isNeverCertain()
      throws IOException {
    JsonNode schema =
        new ObjectMapper()
            .readTree(
                "{\"type\": \"object\", \"properties\": {\"child\": {\"$ref\": \"#\"}},"
                    + " \"propertyNames\": {\"maxLength\": 1}}");
    SchemaPrecheck precheck = new SchemaPrecheck(schema, "");
    ObjectNode nested = NODES.objectNode();
    nested.putObject("child");
    assertThat(precheck.certainlyValid(nested)).isFalse();
  }

  private static List<JsonNode> corpus() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    Predicate<Path> yaml = p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml");
    for (Path file : RepoFiles.under(ROOTS, yaml)) {
      String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
      YamlResult result = SafeYaml.parse(text, YamlLimits.SIBLING, 0);
      if (result instanceof YamlResult.Parsed parsed) {
        collect(parsed.document().root(), out);
      }
    }
    assertThat(out).as("the corpus must be found").hasSizeGreaterThan(200);
    return out;
  }

  /** Every mapping in a tree, and every root. */
  private static void collect(JsonNode node, List<JsonNode> out) {
    if (node.isObject()) {
      out.add(node);
    }
    for (JsonNode child : node) {
      collect(child, out);
    }
  }

  /** A copy with one to three keys removed, added or given odd values. */
  private static JsonNode mutate(JsonNode original, SplittableRandom random) {
    ObjectNode copy = (ObjectNode) original.deepCopy();
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits; e++) {
      List<String> keys = new ArrayList<>();
      copy.fieldNames().forEachRemaining(keys::add);
      int kind = random.nextInt(3);
      if (kind == 0 && !keys.isEmpty()) {
        copy.remove(keys.get(random.nextInt(keys.size())));
      } else if (kind == 1 && !keys.isEmpty()) {
        copy.set(keys.get(random.nextInt(keys.size())), odd(random));
      } else {
        copy.set(ODD_KEYS[random.nextInt(ODD_KEYS.length)], odd(random));
      }
    }
    return copy;
  }

  private static JsonNode odd(SplittableRandom random) {
    return ODD_VALUES[random.nextInt(ODD_VALUES.length)].deepCopy();
  }
}
