package dev.skillport.registry;

import static dev.skillport.registry.TestSkills.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
