package dev.skillport.api.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

class ToolFailureCodeTest {

  @Test
  void everyCode_hasASummary() {
    assertThat(ToolFailureCode.values())
        .allSatisfy(code -> assertThat(code.summary()).as("summary of %s", code).isNotBlank());
  }

  @Test
  void failure_carriesCodeMessageAndHint_inStructuredContentAndText() {
    ToolResult r = ToolResult.failure(ToolFailureCode.SKILL_NOT_FOUND, "no skill 'x'", "search");

    assertThat(r.isError()).isTrue();
    assertThat(r.structured().get("code").asText()).isEqualTo("SKILL_NOT_FOUND");
    assertThat(r.structured().get("message").asText()).isEqualTo("no skill 'x'");
    assertThat(r.structured().get("hint").asText()).isEqualTo("search");
    assertThat(r.content())
        .containsExactly(new Content.Text("SKILL_NOT_FOUND: no skill 'x' (search)"));
  }

  @Test
  void failure_withoutHint_hasNoHintField_andKeepsDetails() {
    ToolResult r =
        ToolResult.failure(
            ToolFailureCode.SCRIPT_FAILED,
            "boom",
            null,
            JsonNodeFactory.instance.objectNode().put("type", "ValueError"));

    assertThat(r.structured().has("hint")).isFalse();
    assertThat(r.structured().at("/details/type").asText()).isEqualTo("ValueError");
    assertThat(r.content()).containsExactly(new Content.Text("SCRIPT_FAILED: boom"));
  }
}
