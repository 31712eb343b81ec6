package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.loader.yaml.YamlResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class MetaSchemaShortcutTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final String[] KEYS = {
    "type",
    "properties",
    "required",
    "enum",
    "examples",
    "const",
    "default",
    "title",
    "description",
    "$comment",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "uniqueItems",
    "readOnly",
    "writeOnly",
    "deprecated",
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "allOf",
    "anyOf",
    "oneOf",
    "prefixItems",
    "x-extra",
    "$ref",
    "$defs",
    "dependentRequired"
  };

  private static JsonNode yaml(String text) {
    return ((YamlResult.Parsed) SafeYaml.parse(text, YamlLimits.SIBLING, 0)).document().root();
  }

  private static boolean fullyValid(JsonNode schema) {
    return SiblingSchema.META_2020_12.validateFully(schema).isEmpty();
  }

  @Test
  void certainlyValid_typicalToolSchemas_areAcceptedAndTheMetaSchemaAgrees() {
    List<JsonNode> typical =
        List.of(
            yaml("type: object"),
            yaml(
                """
                type: object
                properties:
                  target: {type: string, minLength: 1, description: "Name of the mesh."}
                  count: {type: integer, minimum: 1, maximum: 1000, default: 1}
                  mode: {type: string, enum: [fast, balanced, exact], default: balanced}
                  frame_range: {type: array, items: {type: integer}, minItems: 2, maxItems: 2}
                  tolerance: {type: number, exclusiveMinimum: 0, default: 0.001}
                  output_path: {type: string, pattern: "^[A-Za-z0-9_./-]+$"}
                  options: {type: object, additionalProperties: {type: string}}
                  dry_run: {type: boolean, default: false}
                required: [target]
                additionalProperties: false
                """),
            yaml("type: [string, 'null']\nanyOf: [{minLength: 2}, {const: x}]"));

    for (JsonNode schema : typical) {
      assertThat(MetaSchemaShortcut.certainlyValid(schema)).as("%s", schema).isTrue();
      assertThat(fullyValid(schema)).as("%s", schema).isTrue();
    }
  }

  @Test
  void certainlyValid_invalidSchemas_areLeftToTheMetaSchema() {
    List<JsonNode> invalid =
        List.of(
            yaml("type: thing"),
            yaml("type: [string, string]"),
            yaml("required: [a, a]"),
            yaml("minLength: -1"),
            yaml("maxLength: 2.5"),
            yaml("properties: {a: 1}"),
            yaml("allOf: []"),
            yaml("multipleOf: 0"),
            yaml("items: {type: [1]}"));

    for (JsonNode schema : invalid) {
      assertThat(MetaSchemaShortcut.certainlyValid(schema)).as("%s", schema).isFalse();
      assertThat(fullyValid(schema)).as("%s", schema).isFalse();
    }
  }

  @Test
  void certainlyValid_fixtureToolSchemas_neverContradictTheMetaSchema() throws IOException {
    Path fixtures = Path.of("src/test/resources/fixtures");
    List<JsonNode> schemas = new ArrayList<>();
    try (Stream<Path> files = Files.walk(fixtures)) {
      for (Path file :
          files.filter(f -> f.toString().endsWith(".yaml") && Files.isRegularFile(f)).toList()) {
        YamlResult result =
            SafeYaml.parse(
                new String(Files.readAllBytes(file), StandardCharsets.UTF_8),
                YamlLimits.SIBLING,
                0);
        if (result instanceof YamlResult.Parsed parsed) {
          collectSchemas(parsed.document().root(), schemas);
        }
      }
    }

    assertThat(schemas).hasSizeGreaterThan(3);
    for (JsonNode schema : schemas) {
      if (MetaSchemaShortcut.certainlyValid(schema)) {
        assertThat(fullyValid(schema)).as("%s", schema).isTrue();
      }
    }
  }

  @Test
  void certainlyValid_generatedSchemas_acceptOnlyWhatTheMetaSchemaAccepts() {
    SplittableRandom random = new SplittableRandom(42);
    int accepted = 0;
    int rejectedByMeta = 0;
    for (int i = 0; i < 4000; i++) {
      JsonNode schema = schema(random, 0);
      boolean full = fullyValid(schema);
      if (MetaSchemaShortcut.certainlyValid(schema)) {
        accepted++;
        assertThat(full).as("%s", schema).isTrue();
      }
      if (!full) {
        rejectedByMeta++;
      }
    }
    // Both outcomes must occur often, or the comparison above proves little.
    assertThat(accepted).isGreaterThan(200);
    assertThat(rejectedByMeta).isGreaterThan(200);
  }

  private static void collectSchemas(JsonNode node, List<JsonNode> out) {
    if (node.isObject()) {
      node.properties()
          .forEach(
              e -> {
                if (e.getKey().endsWith("_schema") || e.getKey().endsWith("Schema")) {
                  out.add(e.getValue());
                }
                collectSchemas(e.getValue(), out);
              });
    } else if (node.isArray()) {
      node.forEach(n -> collectSchemas(n, out));
    }
  }

  private static JsonNode schema(SplittableRandom random, int depth) {
    if (depth > 0 && random.nextInt(8) == 0) {
      return NODES.booleanNode(random.nextBoolean());
    }
    ObjectNode schema = NODES.objectNode();
    int keys = random.nextInt(depth == 0 ? 4 : 3);
    for (int k = 0; k < keys; k++) {
      String key = KEYS[random.nextInt(KEYS.length)];
      schema.set(key, value(key, random, depth));
    }
    return schema;
  }

  /** A value for {@code key}: usually of the right kind, sometimes anything at all. */
  private static JsonNode value(String key, SplittableRandom random, int depth) {
    if (random.nextInt(4) == 0 || depth > 2) {
      return anyValue(random);
    }
    switch (key) {
      case "type":
        {
          String[] types = {"string", "object", "integer", "null", "thing"};
          if (random.nextBoolean()) {
            return NODES.textNode(types[random.nextInt(types.length)]);
          }
          ArrayNode list = NODES.arrayNode();
          for (int i = random.nextInt(3); i >= 0; i--) {
            list.add(types[random.nextInt(types.length)]);
          }
          return list;
        }
      case "properties":
      case "$defs":
        {
          ObjectNode props = NODES.objectNode();
          for (int i = random.nextInt(3); i > 0; i--) {
            props.set("p" + random.nextInt(5), schema(random, depth + 1));
          }
          return props;
        }
      case "required":
      case "enum":
      case "examples":
      case "dependentRequired":
        {
          ArrayNode list = NODES.arrayNode();
          for (int i = random.nextInt(3); i > 0; i--) {
            list.add(random.nextInt(4) == 0 ? NODES.numberNode(1) : NODES.textNode("a" + i % 2));
          }
          return list;
        }
      case "items":
      case "additionalProperties":
      case "not":
      case "contains":
      case "propertyNames":
        return schema(random, depth + 1);
      case "allOf":
      case "anyOf":
      case "oneOf":
      case "prefixItems":
        {
          ArrayNode list = NODES.arrayNode();
          for (int i = random.nextInt(3); i > 0; i--) {
            list.add(schema(random, depth + 1));
          }
          return list;
        }
      default:
        return anyValue(random);
    }
  }

  private static JsonNode anyValue(SplittableRandom random) {
    switch (random.nextInt(10)) {
      case 0:
        return NODES.textNode("text");
      case 1:
        return NODES.numberNode(random.nextInt(5) - 1);
      case 2:
        return NODES.numberNode(random.nextInt(5) - 1.5);
      case 3:
        return NODES.booleanNode(random.nextBoolean());
      case 4:
        return NODES.nullNode();
      case 5:
        return NODES.arrayNode();
      case 6:
        return NODES.arrayNode().add("x").add("x");
      case 7:
        return NODES.objectNode();
      case 8:
        return NODES.numberNode(0.0);
      default:
        return NODES.numberNode(2L);
    }
  }
}
