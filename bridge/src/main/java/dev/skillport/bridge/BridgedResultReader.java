package dev.skillport.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a bridged server's {@code CallToolResult} into a tool result, bounded: at most {@value
 * #MAX_ITEMS} content items and {@value #MAX_RESULT_CHARS} characters of text and base64 data in
 * all, a {@code structuredContent} of at most {@value #MAX_STRUCTURED_CHARS} characters. What does
 * not fit is cut and the cut is said in a last text item. A {@code resource_link} becomes a text
 * item naming the link; an item of an unknown type is said, not passed on.
 */
final class BridgedResultReader {
  static final int MAX_ITEMS = 64;
  static final int MAX_RESULT_CHARS = 4 * 1024 * 1024;
  static final int MAX_STRUCTURED_CHARS = 1024 * 1024;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private BridgedResultReader() {}

  static ToolResult read(String skill, JsonNode result) {
    List<Content> content = new ArrayList<>();
    int budget = MAX_RESULT_CHARS;
    int omitted = 0;
    boolean cut = false;
    for (JsonNode item : result.path("content")) {
      if (content.size() >= MAX_ITEMS) {
        omitted++;
        continue;
      }
      Content c = item(item);
      int size = size(c);
      if (size > budget) {
        if (c instanceof Content.Text t && budget > 0) {
          content.add(new Content.Text(t.text().substring(0, budget)));
          budget = 0;
          cut = true;
        } else {
          omitted++;
        }
        continue;
      }
      budget -= size;
      content.add(c);
    }
    if (cut || omitted > 0) {
      content.add(
          new Content.Text(
              "[the result of skill "
                  + skill
                  + "'s MCP server was cut to "
                  + MAX_RESULT_CHARS / (1024 * 1024)
                  + " MiB and "
                  + MAX_ITEMS
                  + " items"
                  + (omitted > 0 ? "; " + omitted + " items were left out" : "")
                  + "]"));
    }
    boolean isError = result.path("isError").asBoolean(false);
    JsonNode structured = result.get("structuredContent");
    if (structured != null
        && (!structured.isObject() || structured.toString().length() > MAX_STRUCTURED_CHARS)) {
      structured = null;
    }
    if (isError) {
      ObjectNode error =
          NODES
              .objectNode()
              .put("code", ToolFailureCode.BRIDGED_TOOL_ERROR.name())
              .put("message", firstText(content, "the bridged tool reported an error"))
              .put("hint", "the error comes from the MCP server of skill " + skill);
      return new ToolResult(content, error, true);
    }
    if (content.isEmpty() && structured != null) {
      content.add(new Content.Text(structured.toString()));
    }
    return new ToolResult(content, structured, false);
  }

  private static Content item(JsonNode item) {
    String type = item.path("type").asText("");
    switch (type) {
      case "text":
        return new Content.Text(item.path("text").asText(""));
      case "image":
      case "audio":
        {
          String data = item.path("data").asText(null);
          String mime = item.path("mimeType").asText(null);
          if (data == null || mime == null) {
            return new Content.Text("[an " + type + " item without data or mimeType]");
          }
          return type.equals("image")
              ? new Content.Image(data, mime)
              : new Content.Audio(data, mime);
        }
      case "resource":
        {
          JsonNode r = item.path("resource");
          String uri = r.path("uri").asText(null);
          if (uri == null || (!r.has("text") && !r.has("blob"))) {
            return new Content.Text("[a resource item without uri or contents]");
          }
          String mime = r.path("mimeType").isTextual() ? r.get("mimeType").asText() : null;
          return r.has("text")
              ? new Content.EmbeddedResource(uri, mime, r.path("text").asText(""), null)
              : new Content.EmbeddedResource(uri, mime, null, r.path("blob").asText(""));
        }
      case "resource_link":
        return new Content.Text(
            "[resource link: "
                + Text.clean(item.path("name").asText(""), 200)
                + " "
                + Text.clean(item.path("uri").asText(""), 2000)
                + "]");
      default:
        return new Content.Text(
            "[a content item of type '" + Text.clean(type, 40) + "' was left out]");
    }
  }

  private static int size(Content c) {
    if (c instanceof Content.Text t) {
      return t.text().length();
    }
    if (c instanceof Content.Image i) {
      return i.base64Data().length();
    }
    if (c instanceof Content.Audio a) {
      return a.base64Data().length();
    }
    Content.EmbeddedResource r = (Content.EmbeddedResource) c;
    return r.text() != null ? r.text().length() : r.blob().length();
  }

  private static String firstText(List<Content> content, String otherwise) {
    for (Content c : content) {
      if (c instanceof Content.Text t && !t.text().isBlank()) {
        return Text.clean(t.text(), 2000);
      }
    }
    return otherwise;
  }
}
