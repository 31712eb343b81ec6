package dev.skillport.server.app;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolResult;
import java.util.List;

/** Tool failures as {@code isError} results carrying {@code {code, message, hint}}. */
public final class ToolCallErrors {
  private ToolCallErrors() {}

  public static ToolResult result(String code, String message, String hint) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("code", code);
    body.put("message", message);
    if (hint != null) {
      body.put("hint", hint);
    }
    String text = code + ": " + message + (hint == null ? "" : " (" + hint + ")");
    return new ToolResult(List.of(new Content.Text(text)), body, true);
  }
}
