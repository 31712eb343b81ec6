package dev.skillport.server.listing;

import static dev.skillport.registry.TestSkills.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.skill.ToolSpec;
import org.junit.jupiter.api.Test;

class SchemaSimplifierTest {
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
