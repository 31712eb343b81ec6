package dev.skillport.api.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What a tool call produced.
 *
 * @param content content items shown to the model
 * @param structured a JSON object result, or {@code null}
 * @param isError whether the tool itself failed (not a protocol error)
 */
public record ToolResult(List<Content> content, JsonNode structured, boolean isError) {
  public ToolResult {
    content = List.copyOf(content);
    structured = structured == null ? null : structured.deepCopy();
  }

  public static ToolResult text(String text) {
    return new ToolResult(List.of(new Content.Text(text)), null, false);
  }

  public static ToolResult error(String message) {
    return new ToolResult(List.of(new Content.Text(message)), null, true);
  }

  /** A structured result; its text content is the JSON rendering. */
  public static ToolResult structured(JsonNode object) {
    return new ToolResult(List.of(new Content.Text(object.toString())), object, false);
  }
}
