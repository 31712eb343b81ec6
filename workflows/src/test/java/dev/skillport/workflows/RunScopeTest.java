package dev.skillport.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RunScopeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static RunScope scope() throws Exception {
    RunScope s = RunScope.of(JSON.readTree("{\"n\":2,\"name\":\"ada\",\"tags\":[\"a\",\"b\"]}"));
    s.recordOutput(
        "list",
        JSON.readTree("{\"files\":[{\"path\":\"x\",\"meta\":{\"size\":1}},{\"path\":\"y\"}]}"));
    return s;
  }

  @Test
  void renderValue_wholeTemplate_keepsTheJsonType() throws Exception {
    RunScope s = scope();

    assertThat(s.renderValue("{{inputs.n}}").isInt()).isTrue();
    assertThat(s.renderValue(" {{ inputs.tags }} ").isArray()).isTrue();
    assertThat(s.renderValue("{{steps.list.output.files[-1]}}").path("path").asText())
        .isEqualTo("y");
    assertThat(s.renderValue("{{steps.list.output['files'][0].meta}}").path("size").asInt())
        .isEqualTo(1);
  }

  @Test
  void renderValue_embedded_rendersText() throws Exception {
    JsonNode v = scope().renderValue("{{inputs.name}} has {{inputs.n}} tags {{inputs.tags}}");

    assertThat(v.asText()).isEqualTo("ada has 2 tags [\"a\",\"b\"]");
  }

  @Test
  void render_itemAndAsName_resolveInsideForeach() throws Exception {
    RunScope inner = scope().withItem("file", JSON.readTree("{\"path\":\"z\"}"));

    JsonNode out = inner.render(JSON.readTree("{\"a\":\"{{item.path}}\",\"b\":[\"{{file}}\"]}"));

    assertThat(out.path("a").asText()).isEqualTo("z");
    assertThat(out.path("b").get(0).path("path").asText()).isEqualTo("z");
  }

  @Test
  void resolve_unknownReferences_areClearErrors() throws Exception {
    RunScope s = scope();

    assertThatThrownBy(() -> s.renderText("{{inputs.nope}}"))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("inputs has no field 'nope'");
    assertThatThrownBy(() -> s.renderText("{{steps.later.output}}"))
        .hasMessageContaining("step 'later', which has no output");
    assertThatThrownBy(() -> s.renderText("{{item}}"))
        .hasMessageContaining("not inputs, steps or an item");
    assertThatThrownBy(() -> s.renderText("{{inputs.tags[5]}}"))
        .hasMessageContaining("has 2 items, so it has no [5]");
  }

  @Test
  void items_jsonPathsAndTemplates_selectTheExpectedNodes() throws Exception {
    RunScope s = scope();

    assertThat(s.items("$.inputs.tags")).extracting(JsonNode::asText).containsExactly("a", "b");
    assertThat(s.items("{{inputs.tags}}")).hasSize(2);
    assertThat(s.items("$.steps.list.output.files[*].path"))
        .extracting(JsonNode::asText)
        .containsExactly("x", "y");
    assertThat(s.items("$..path")).extracting(JsonNode::asText).containsExactly("x", "y");
    assertThat(s.items("$.steps.list.output.files[0]['path','meta']")).hasSize(2);
    assertThat(s.items("$.inputs.missing[*]")).isEmpty();
    assertThatThrownBy(() -> s.items("$.inputs.name")).hasMessageContaining("must select a list");
  }
}
