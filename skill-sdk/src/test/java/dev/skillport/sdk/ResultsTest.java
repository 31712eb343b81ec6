package dev.skillport.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolResult;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ResultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void builder_everyKindOfContent_keptInOrderAndEncoded() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
    ToolResult result =
        Results.builder()
            .text("t")
            .image(png, "image/png")
            .audio(new byte[] {1, 2}, "audio/wav")
            .resource("test://r", "text/plain", "body")
            .blobResource("test://b", "application/octet-stream", new byte[] {9})
            .build();

    assertThat(result.isError()).isFalse();
    assertThat(result.content())
        .containsExactly(
            new Content.Text("t"),
            new Content.Image(Base64.getEncoder().encodeToString(png), "image/png"),
            new Content.Audio("AQI=", "audio/wav"),
            new Content.EmbeddedResource("test://r", "text/plain", "body", null),
            new Content.EmbeddedResource("test://b", "application/octet-stream", null, "CQ=="));
  }

  @Test
  void error_message_isErrorWithText() {
    ToolResult result = Results.error("disk full");

    assertThat(result.isError()).isTrue();
    assertThat(result.content()).containsExactly(new Content.Text("disk full"));
  }

  @Test
  void structured_object_keptAndRenderedAsText() {
    ObjectNode object = JSON.createObjectNode().put("count", 3);

    ToolResult result = Results.structured(object);

    assertThat(result.structured()).isEqualTo(object);
    assertThat(result.content()).containsExactly(new Content.Text("{\"count\":3}"));
  }

  @Test
  void structured_notAnObject_refused() {
    assertThatThrownBy(() -> Results.builder().structured(JSON.createArrayNode()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
