package dev.skillport.server.listing;

import static dev.skillport.registry.TestSkills.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.model.skill.FrozenJson;
import dev.skillport.model.skill.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaSimplifierTest {
  /** Schemas simplify lists unchanged: the shapes most tools declare. */
  private static final List<String> SIMPLE =
      List.of(
          "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}",
          "{\"type\":\"object\",\"properties\":{}}",
          """
          {"type":"object","description":"d","properties":{
            "n":{"type":"integer","minimum":0},
            "tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},
            "opts":{"type":"object","properties":{"deep":{"type":"boolean"}},
                    "additionalProperties":{"type":"number"}},
            "not":{"type":"string"},"anyOf":{"type":"string"}},
           "required":["n"],"additionalProperties":false,
           "$defs":{"item":{"type":"string"},"flag":true}}""",
          """
          {"type":"object","properties":{"a":{"type":"object","properties":{"b":true}}},
           "definitions":{"x":{"type":"integer"}}}""");

  /** Schemas simplify changes, each in one place. */
  private static final List<String> CHANGED =
      List.of(
          "{\"properties\":{\"a\":{\"type\":\"string\"}}}",
          "{\"type\":\"object\"}",
          "{\"type\":[\"object\",\"null\"],\"properties\":{}}",
          "{\"type\":\"object\",\"properties\":{\"a\":true,\"b\":false}}",
          "{\"type\":\"object\",\"properties\":{},\"required\":[\"a\",1]}",
          "{\"type\":\"object\",\"properties\":{},\"required\":\"a\"}",
          "{\"type\":\"object\",\"properties\":[]}",
          "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"string\",\"null\"]}}}",
          "{\"type\":\"object\",\"properties\":{\"a\":{\"not\":{\"type\":\"null\"}}}}",
          "{\"type\":\"object\",\"properties\":{},\"$defs\":{\"d\":{\"oneOf\":[{\"type\":\"string\"}]}}}",
          "{\"type\":\"object\",\"properties\":{\"l\":{\"items\":{\"anyOf\":[{\"type\":\"string\"}]}}}}",
          "{\"type\":\"object\",\"properties\":{},\"allOf\":[{\"required\":[\"a\"]}]}",
          "{\"type\":\"object\",\"properties\":{},\"if\":{},\"then\":{},\"else\":{}}",
          "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\",\"properties\":{}}");

  @Test
  void simplify_aFrozenSchemaThatIsSimpleAlready_isListedAsItIs_notCopied() {
    for (String text : SIMPLE) {
      JsonNode frozen = FrozenJson.freeze(json(text));
      assertThat(SchemaSimplifier.simplify(frozen)).as(text).isSameAs(frozen);
    }
    for (String text : CHANGED) {
      JsonNode frozen = FrozenJson.freeze(json(text));
      assertThat(SchemaSimplifier.simplify(frozen)).as(text).isNotSameAs(frozen);
    }
  }

  @Test
  void simplify_givesAFrozenSchemaTheTreeItGivesAMutableCopy() {
    List<String> all = new ArrayList<>(SIMPLE);
    all.addAll(CHANGED);
    for (String text : all) {
      JsonNode frozen = FrozenJson.freeze(json(text));
      JsonNode viaFastPath = SchemaSimplifier.simplify(frozen);
      JsonNode viaCopy = SchemaSimplifier.simplify(json(text));
      assertThat(viaFastPath).as(text).isEqualTo(viaCopy);
      // Same members in the same order: the listed bytes are the same either way.
      assertThat(viaFastPath.toString()).as(text).isEqualTo(viaCopy.toString());
    }
  }

  @Test
  void simplify_nullableUnions_collapseToTheRealType() {
    JsonNode out =
        SchemaSimplifier.simplify(
            json(
                """
                {"type":"object","properties":{
                  "a":{"type":["string","null"]},
                  "b":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}]},
                  "c":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}"""));
    assertThat(out.at("/properties/a/type").asText()).isEqualTo("string");
    assertThat(out.at("/properties/b/type").asText()).isEqualTo("integer");
    assertThat(out.at("/properties/b/minimum").asInt()).isEqualTo(1);
    assertThat(out.at("/properties/b").has("anyOf")).isFalse();
    assertThat(out.at("/properties/c").has("oneOf")).isFalse();
  }

  @Test
  void simplify_allOf_mergesPropertiesAndRequired() {
    JsonNode out =
        SchemaSimplifier.simplify(
            json(
                """
                {"allOf":[{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]},
                          {"properties":{"y":{"type":"number"}},"required":["y"]}],
                 "not":{"required":["z"]}}"""));
    assertThat(out.get("type").asText()).isEqualTo("object");
    assertThat(out.at("/properties/x/type").asText()).isEqualTo("string");
    assertThat(out.at("/properties/y/type").asText()).isEqualTo("number");
    assertThat(out.get("required")).hasSize(2);
    assertThat(out.has("not")).isFalse();
    assertThat(out.has("allOf")).isFalse();
  }

  @Test
  void simplify_declaredDialectWithoutType_getsTheObjectRootMcpRequires() {
    JsonNode out =
        SchemaSimplifier.simplify(
            json(
                """
                {"$schema":"https://json-schema.org/draft/2020-12/schema",
                 "properties":{"a":true,"b":false,"c":{"type":"string"}},"required":["a"]}"""));
    assertThat(out.get("type").asText()).isEqualTo("object");
    assertThat(out.get("$schema").asText()).contains("2020-12");
    assertThat(out.get("properties")).isEqualTo(json("{\"a\":{},\"c\":{\"type\":\"string\"}}"));
  }

  @Test
  void output_objectSchema_losesOnlyItsDialectAndBooleanProperties() {
    ToolSpec tool =
        tool(
            """
            {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
             "properties":{"n":{"type":"integer"},"any":true},"required":["n"]}""");
    assertThat(SchemaSimplifier.output(tool))
        .isEqualTo(
            json(
                """
                {"type":"object","properties":{"n":{"type":"integer"},"any":{}},
                 "required":["n"]}"""));
  }

  @Test
  void output_nonObjectSchema_isWrappedUnderResultWithDefsAtTheRoot() {
    ToolSpec tool =
        tool(
            """
            {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array",
             "items":{"$ref":"#/$defs/item"},"$defs":{"item":{"type":"string"}}}""");
    assertThat(SchemaSimplifier.output(tool))
        .isEqualTo(
            json(
                """
                {"type":"object","$defs":{"item":{"type":"string"}},
                 "properties":{"result":{"type":"array","items":{"$ref":"#/$defs/item"}}},
                 "required":["result"]}"""));
  }

  @Test
  void output_referenceOutsideTheSchema_isNotListed() {
    ToolSpec tool =
        tool(
            """
            {"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}""");
    assertThat(SchemaSimplifier.output(tool)).isNull();
    assertThat(
            SchemaSimplifier.output(ToolSpec.builder("t", ToolSpec.defaultInputSchema()).build()))
        .isNull();
  }

  private static ToolSpec tool(String outputSchema) {
    return ToolSpec.builder("t", ToolSpec.defaultInputSchema())
        .outputSchema(json(outputSchema))
        .build();
  }

  @Test
  void simplify_declaredDialect_isListedUnchanged() {
    JsonNode in =
        json(
            """
            {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
             "$defs":{"p":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/p"}},
             "additionalProperties":false,"anyOf":[{"required":["a"]}]}""");
    assertThat(SchemaSimplifier.simplify(in)).isEqualTo(in);
  }

  @Test
  void simplify_nonObjectRoot_becomesObjectWithProperties() {
    JsonNode out = SchemaSimplifier.simplify(json("{\"type\":\"string\"}"));
    assertThat(out.get("type").asText()).isEqualTo("object");
    assertThat(out.get("properties").isObject()).isTrue();
  }
}
