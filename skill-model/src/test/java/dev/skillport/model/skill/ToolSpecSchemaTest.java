package dev.skillport.model.skill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class ToolSpecSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode schema() throws Exception {
    return (ObjectNode)
        JSON.readTree(
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"minLength\":1},"
                + "\"b\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}},"
                + "\"required\":[\"a\"],\"additionalProperties\":false}");
  }

  @Test
  void constructor_callerMutatesSchemaAfterwards_specKeepsTheOriginal() throws Exception {
    ObjectNode input = schema();
    ToolSpec spec = ToolSpec.builder("t", input).build();

    input.put("type", "string");
    ((ObjectNode) input.get("properties")).remove("a");

    assertThat(spec.inputSchema()).isEqualTo(schema());
    assertThat(spec.inputSchema().path("properties").has("a")).isTrue();
  }

  @Test
  void inputSchema_anyMutation_isRefused() throws Exception {
    JsonNode held = ToolSpec.builder("t", schema()).build().inputSchema();

    assertThatThrownBy(() -> ((ObjectNode) held).put("type", "string"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ((ObjectNode) held.get("properties")).remove("a"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ((ArrayNode) held.get("required")).add("b"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(held).isEqualTo(schema());
  }

  @Test
  void inputSchema_deepCopy_isMutableAndEqual() throws Exception {
    JsonNode held = ToolSpec.builder("t", schema()).build().inputSchema();

    ObjectNode copy = (ObjectNode) held.deepCopy();
    copy.put("title", "x");

    assertThat(copy.get("title").asText()).isEqualTo("x");
    assertThat(held.has("title")).isFalse();
  }

  @Test
  void inputSchema_serialisesWithFieldOrderKept() throws Exception {
    ObjectNode input = schema();
    JsonNode held = ToolSpec.builder("t", input).build().inputSchema();

    assertThat(JSON.writeValueAsString(held)).isEqualTo(JSON.writeValueAsString(input));
    assertThat(held.hashCode()).isEqualTo(input.hashCode());
    assertThat(input).isEqualTo(held);
  }

  @Test
  void toBuilder_rebuiltSpec_sharesTheFrozenSchema() throws Exception {
    ToolSpec spec = ToolSpec.builder("t", schema()).outputSchema(schema()).build();

    ToolSpec rebuilt = spec.toBuilder().description("other").build();

    assertThat(rebuilt.inputSchema()).isSameAs(spec.inputSchema());
    assertThat(rebuilt.outputSchema()).isSameAs(spec.outputSchema());
  }

  @Test
  void freeze_largeMapping_keepsOrderAndLookups() throws Exception {
    ObjectNode props = JSON.createObjectNode();
    for (int i = 0; i < 40; i++) {
      props.putObject("p" + i).put("type", "string");
    }
    ObjectNode input = JSON.createObjectNode().put("type", "object");
    input.set("properties", props);

    JsonNode held = ToolSpec.builder("t", input).build().inputSchema();

    assertThat(held.get("properties").get("p37").get("type").asText()).isEqualTo("string");
    assertThat(held.get("properties").fieldNames().next()).isEqualTo("p0");
    assertThat(held).isEqualTo(input);
    assertThatThrownBy(() -> ((ObjectNode) held.get("properties")).remove("p1"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void admitsOnlyObjects_acceptsObjectRootsAndRefusesOthers() throws Exception {
    for (String yes :
        new String[] {
          "true",
          "{}",
          "{\"type\":\"object\"}",
          "{\"type\":[\"object\",\"null\"]}",
          "{\"properties\":{}}"
        }) {
      assertThat(ToolSpec.admitsOnlyObjects(JSON.readTree(yes))).as(yes).isTrue();
    }
    for (String no :
        new String[] {
          "false",
          "{\"type\":\"string\"}",
          "{\"type\":[\"object\",\"string\"]}",
          "{\"type\":\"array\"}",
          "{\"type\":[\"null\"]}"
        }) {
      assertThat(ToolSpec.admitsOnlyObjects(JSON.readTree(no))).as(no).isFalse();
    }
  }

  @Test
  void wrapsOutput_onlyForANonObjectOutputSchema() throws Exception {
    JsonNode in = ToolSpec.defaultInputSchema();
    assertThat(ToolSpec.builder("t", in).build().wrapsOutput()).isFalse();
    assertThat(
            ToolSpec.builder("t", in)
                .outputSchema(JSON.readTree("{\"type\":\"object\"}"))
                .build()
                .wrapsOutput())
        .isFalse();
    assertThat(
            ToolSpec.builder("t", in)
                .outputSchema(JSON.readTree("{\"type\":\"string\"}"))
                .build()
                .wrapsOutput())
        .isTrue();
  }
}
