package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Turns what Blender answered into a tool result, the way the server reads a script's stdout: an
 * object is the structured result, {@code "success": false} in it makes an error whose text is its
 * {@code message}, and a failure the host could not turn into an answer is an error carrying {@code
 * {code, message, hint}}. Items of a {@code content} list in the object ({@code {type: image, data,
 * mimeType}}, {@code {type: text, text}}) become MCP content before the JSON text.
 */
final class HostResults {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A content item's file larger than this is left out. */
  static final long MAX_FILE_BYTES = 16L << 20;

  private HostResults() {}

  static ToolResult failure(String code, String message, String hint, JsonNode details) {
    ObjectNode body = NODES.objectNode();
    body.put("code", code);
    body.put("message", message);
    if (hint != null) {
      body.put("hint", hint);
    }
    if (details != null) {
      body.set("details", details);
    }
    String text = code + ": " + message + (hint == null ? "" : " (" + hint + ")");
    return new ToolResult(List.of(new Content.Text(text)), body, true);
  }

  static ToolResult answered(JsonNode answer) {
    if (!answer.path("ok").asBoolean()) {
      String error = answer.path("error").asText("the script failed");
      ObjectNode details = NODES.objectNode();
      details.put("type", answer.path("type").asText("Error"));
      String trace = answer.path("traceback").asText("");
      if (!trace.isEmpty()) {
        details.put("traceback", trace);
      }
      return failure(
          "SCRIPT_FAILED", error + (trace.isEmpty() ? "" : "\n" + trace.strip()), null, details);
    }
    JsonNode result = answer.path("result");
    if (result.isObject()) {
      List<Content> content = new ArrayList<>(richContent(result.path("content")));
      ObjectNode structured = ((ObjectNode) result).deepCopy();
      structured.remove("content");
      boolean failed = result.has("success") && !result.get("success").asBoolean(true);
      if (failed) {
        content.add(
            new Content.Text(
                result.path("message").asText(result.path("error").asText(structured.toString()))));
        return new ToolResult(content, structured, true);
      }
      content.add(new Content.Text(structured.toString()));
      return new ToolResult(content, structured, false);
    }
    if (result.isNull() || result.isMissingNode()) {
      return ToolResult.text("");
    }
    return ToolResult.text(result.isTextual() ? result.asText() : result.toString());
  }

  private static List<Content> richContent(JsonNode items) {
    List<Content> out = new ArrayList<>();
    if (!items.isArray()) {
      return out;
    }
    for (JsonNode item : items) {
      String type = item.path("type").asText("");
      String mime = item.path("mimeType").isTextual() ? item.get("mimeType").asText() : null;
      switch (type) {
        case "image" -> {
          String data = data(item);
          if (data != null) {
            out.add(new Content.Image(data, mime != null ? mime : guessMime(item, "image/png")));
          }
        }
        case "audio" -> {
          String data = data(item);
          if (data != null) {
            out.add(new Content.Audio(data, mime != null ? mime : guessMime(item, "audio/wav")));
          }
        }
        case "text" -> {
          if (item.path("text").isTextual()) {
            out.add(new Content.Text(item.get("text").asText()));
          }
        }
        case "resource" -> {
          String uri =
              item.path("uri").isTextual()
                  ? item.get("uri").asText()
                  : item.path("path").isTextual()
                      ? Path.of(item.get("path").asText()).toUri().toString()
                      : "blender://result";
          if (item.path("text").isTextual()) {
            out.add(new Content.EmbeddedResource(uri, mime, item.get("text").asText(), null));
          } else {
            String blob = item.path("blob").isTextual() ? item.get("blob").asText() : data(item);
            if (blob != null) {
              out.add(new Content.EmbeddedResource(uri, mime, null, blob));
            }
          }
        }
        default -> {
          // An item of an unknown kind is left out; the structured result still has the rest.
        }
      }
    }
    return out;
  }

  /** Base64 data of an item: its {@code data}, or the file at its {@code path}, or null. */
  private static String data(JsonNode item) {
    if (item.path("data").isTextual()) {
      return item.get("data").asText();
    }
    if (!item.path("path").isTextual()) {
      return null;
    }
    Path file = Path.of(item.get("path").asText());
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
        return null;
      }
      return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
    } catch (IOException e) {
      return null;
    }
  }

  private static String guessMime(JsonNode item, String fallback) {
    if (item.path("path").isTextual()) {
      String guessed = URLConnection.guessContentTypeFromName(item.get("path").asText());
      if (guessed != null) {
        return guessed;
      }
    }
    return fallback;
  }
}
