package dev.skillport.api.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.stability.API;
import java.util.List;

/**
 * What a tool call produced.
 *
 * @param content content items shown to the model
 * @param structured a JSON object result, or {@code null}
 * @param isError whether the tool itself failed (not a protocol error)
 */
@API(status = API.Status.STABLE)
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

  /**
   * A tool failure: {@code isError} with structured content {@code {code, message, hint}} and the
   * text {@code "CODE: message (hint)"}.
   *
   * @param hint what the caller can do about it, or {@code null}
   */
  public static ToolResult failure(ToolFailureCode code, String message, String hint) {
    return failure(code, message, hint, null);
  }

  /**
   * Like {@link #failure(ToolFailureCode, String, String)}, with {@code details} (an object, or
   * {@code null}) beside the message.
   */
  public static ToolResult failure(
      ToolFailureCode code, String message, String hint, JsonNode details) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("code", code.name());
    body.put("message", message);
    if (hint != null) {
      body.put("hint", hint);
    }
    if (details != null) {
      body.set("details", details);
    }
    String text = code.name() + ": " + message + (hint == null ? "" : " (" + hint + ")");
    return new ToolResult(List.of(new Content.Text(text)), body, true);
  }
}
