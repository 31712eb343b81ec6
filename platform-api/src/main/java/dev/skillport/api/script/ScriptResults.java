package dev.skillport.api.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.stability.API;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a script's result means (the script protocol's result rules, README "Script tools"): the
 * JSON object on stdout is the result envelope, {@code success: false} or a non-zero exit makes the
 * call a tool error whose text is the script's own {@code message}, and a {@code content} list of
 * MCP content items (images, audio, embedded resources, inline or as files) becomes content beside
 * the text. The server's script runner and host adapters (for the value a script's {@code
 * main(**params)} returned inside the host) read results by the same rules.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class ScriptResults {
  /** Content items kept from one result; more are reported and dropped. */
  public static final int MAX_CONTENT_ITEMS = 32;

  /** The largest file a content item may name. */
  public static final long MAX_FILE_BYTES = 16L << 20;

  /** All files of one result together. */
  public static final long MAX_TOTAL_BYTES = 32L << 20;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final Map<String, String> MIME_TYPES =
      Map.ofEntries(
          Map.entry("png", "image/png"),
          Map.entry("jpg", "image/jpeg"),
          Map.entry("jpeg", "image/jpeg"),
          Map.entry("gif", "image/gif"),
          Map.entry("webp", "image/webp"),
          Map.entry("bmp", "image/bmp"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("wav", "audio/wav"),
          Map.entry("mp3", "audio/mpeg"),
          Map.entry("ogg", "audio/ogg"),
          Map.entry("flac", "audio/flac"),
          Map.entry("m4a", "audio/mp4"),
          Map.entry("txt", "text/plain"),
          Map.entry("md", "text/markdown"),
          Map.entry("csv", "text/csv"),
          Map.entry("json", "application/json"),
          Map.entry("yaml", "application/yaml"),
          Map.entry("yml", "application/yaml"),
          Map.entry("html", "text/html"),
          Map.entry("xml", "application/xml"),
          Map.entry("usda", "text/plain"),
          Map.entry("py", "text/x-python"));

  private ScriptResults() {}

  /**
   * The tool result of a script that exited with {@code exit}.
   *
   * @param stdout what the script printed (possibly cut at the output cap)
   * @param truncated whether stdout was cut
   * @param stderrTail the last lines of stderr, protocol lines removed
   * @param workDir the folder relative content paths are resolved against (the skill folder)
   */
  public static ToolResult interpret(
      int exit, String stdout, boolean truncated, String stderrTail, Path workDir) {
    JsonNode object = parseObject(stdout.strip());
    if (object == null) {
      List<String> lines = stdout.lines().filter(l -> !l.isBlank()).toList();
      if (!lines.isEmpty()) {
        object = parseObject(lines.get(lines.size() - 1).strip());
      }
    }
    String cut = truncated ? "\n[stdout truncated after " + stdout.length() + " chars]" : "";
    if (object == null) {
      return exit == 0 ? ToolResult.text(stdout + cut) : plainFailure(exit, stdout, stderrTail);
    }
    ObjectNode envelope = (ObjectNode) object;
    List<Content> extra = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    JsonNode items = envelope.get("content");
    if (isContentList(items)) {
      envelope = envelope.deepCopy();
      envelope.remove("content");
      extra = contentItems(items, workDir, problems);
    }
    boolean declaredFailure =
        envelope.has("success")
            && envelope.get("success").isBoolean()
            && !envelope.get("success").booleanValue();
    if (exit != 0 || declaredFailure) {
      return envelopeFailure(exit, envelope, declaredFailure, stderrTail, extra, problems);
    }
    List<Content> content = new ArrayList<>();
    content.add(new Content.Text(envelope.toString() + cut));
    content.addAll(extra);
    problems.forEach(p -> content.add(new Content.Text(p)));
    return new ToolResult(content, envelope, false);
  }

  /**
   * The tool result of the value a script's entry function returned inside a host: an object is
   * read as the result envelope (as if printed by a script that exited 0), {@code null} is an empty
   * text, a string is the text, anything else its JSON text.
   *
   * @param workDir the folder relative content paths are resolved against (the skill folder)
   */
  public static ToolResult ofReturnedValue(JsonNode value, Path workDir) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return ToolResult.text("");
    }
    if (value.isObject()) {
      return interpret(0, value.toString(), false, "", workDir);
    }
    return ToolResult.text(value.isTextual() ? value.asText() : value.toString());
  }

  private static JsonNode parseObject(String text) {
    if (!text.startsWith("{")) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(text);
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** A failure without an envelope: the stderr tail, else the plain stdout, is the message. */
  private static ToolResult plainFailure(int exit, String stdout, String stderrTail) {
    String stderr = tail(stderrTail, 2000);
    String out = tail(stdout, 4000);
    String message;
    if (!stderr.isBlank()) {
      message = "script exited with code " + exit + ": " + stderr;
    } else if (!out.isBlank()) {
      message = out;
    } else {
      message = "script exited with code " + exit;
    }
    ObjectNode body = NODES.objectNode();
    body.put("code", ToolFailureCode.SCRIPT_FAILED.name());
    body.put("message", message);
    body.put("exit_code", exit);
    return new ToolResult(List.of(new Content.Text(message)), body, true);
  }

  /**
   * A failure the script described: its {@code message} (with {@code error} when that adds to it,
   * and {@code prompt}) is the text; the envelope is the structured result, with the platform's
   * {@code code}, {@code message} and {@code hint} added where the script left them out.
   */
  private static ToolResult envelopeFailure(
      int exit,
      ObjectNode envelope,
      boolean declaredFailure,
      String stderrTail,
      List<Content> extra,
      List<String> problems) {
    ObjectNode body = envelope.deepCopy();
    String message = text(body, "message");
    String error = text(body, "error");
    String prompt = text(body, "prompt");
    if (message == null) {
      message = error;
    }
    if (message == null) {
      String stderr = tail(stderrTail, 2000);
      message =
          declaredFailure && exit == 0
              ? "the script reported a failure"
              : "script exited with code " + exit + (stderr.isBlank() ? "" : ": " + stderr);
    } else if (!declaredFailure) {
      // The script exited non-zero after printing a result that did not say it failed.
      message = "script exited with code " + exit + ": " + message;
    }
    StringBuilder text = new StringBuilder(message);
    if (error != null && !error.equals(message) && !message.contains(error)) {
      text.append(" (").append(error).append(')');
    }
    if (prompt != null) {
      text.append('\n').append(prompt);
    }
    if (!body.has("code")) {
      body.put("code", ToolFailureCode.SCRIPT_FAILED.name());
    }
    if (!body.has("message")) {
      body.put("message", message);
    }
    if (!body.has("hint") && prompt != null) {
      body.put("hint", prompt);
    }
    if (exit != 0) {
      body.put("exit_code", exit);
    }
    List<Content> content = new ArrayList<>();
    content.add(new Content.Text(text.toString()));
    content.addAll(extra);
    problems.forEach(p -> content.add(new Content.Text(p)));
    return new ToolResult(content, body, true);
  }

  private static String text(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    String s = v.isTextual() ? v.asText() : v.toString();
    return s.isBlank() ? null : s;
  }

  /** Whether {@code content} is a list of MCP-style content items ({@code {type: …}} objects). */
  private static boolean isContentList(JsonNode content) {
    if (content == null || !content.isArray() || content.isEmpty()) {
      return false;
    }
    for (JsonNode item : content) {
      if (!item.isObject() || !item.path("type").isTextual()) {
        return false;
      }
    }
    return true;
  }

  private static List<Content> contentItems(JsonNode items, Path workDir, List<String> problems) {
    List<Content> out = new ArrayList<>();
    long[] budget = {MAX_TOTAL_BYTES};
    int index = 0;
    for (JsonNode item : items) {
      if (index == MAX_CONTENT_ITEMS) {
        problems.add("[content items after the first " + MAX_CONTENT_ITEMS + " were dropped]");
        break;
      }
      try {
        out.add(contentItem(item, workDir, budget));
      } catch (BadItem e) {
        problems.add("[content item " + index + " was dropped: " + e.getMessage() + "]");
      }
      index++;
    }
    return out;
  }

  /** Why one content item could not be used; the script author's problem, told to the agent. */
  private static final class BadItem extends Exception {
    private static final long serialVersionUID = 1L;

    BadItem(String message) {
      super(message);
    }
  }

  private static Content contentItem(JsonNode item, Path workDir, long[] budget) throws BadItem {
    String type = item.get("type").asText().toLowerCase(Locale.ROOT);
    switch (type) {
      case "text":
        if (!item.path("text").isTextual()) {
          throw new BadItem("a text item needs text");
        }
        return new Content.Text(item.get("text").asText());
      case "image":
      case "audio":
        {
          Binary data = binary(item, workDir, budget, type);
          return type.equals("image")
              ? new Content.Image(data.base64(), data.mimeType())
              : new Content.Audio(data.base64(), data.mimeType());
        }
      case "resource":
        return resource(item.has("resource") ? item.get("resource") : item, workDir, budget);
      default:
        throw new BadItem("unknown type '" + type + "' (use text, image, audio or resource)");
    }
  }

  private record Binary(String base64, String mimeType) {}

  private static Binary binary(JsonNode item, Path workDir, long[] budget, String kind)
      throws BadItem {
    String mime = item.hasNonNull("mimeType") ? item.get("mimeType").asText() : null;
    if (item.hasNonNull("path")) {
      Path file = file(item.get("path").asText(), workDir);
      byte[] bytes = read(file, budget);
      if (mime == null) {
        mime = guess(file);
      }
      if (mime == null || !mime.startsWith(kind + "/")) {
        throw new BadItem(
            "cannot tell the " + kind + " type of '" + file.getFileName() + "'; give mimeType");
      }
      return new Binary(Base64.getEncoder().encodeToString(bytes), mime);
    }
    if (!item.path("data").isTextual()) {
      throw new BadItem("an " + kind + " item needs data (base64) or path");
    }
    String data = item.get("data").asText();
    checkBase64(data);
    if (mime == null) {
      throw new BadItem("an " + kind + " item with data needs mimeType");
    }
    return new Binary(data, mime);
  }

  private static Content resource(JsonNode r, Path workDir, long[] budget) throws BadItem {
    if (!r.isObject()) {
      throw new BadItem("resource must be an object");
    }
    String uri = r.hasNonNull("uri") ? r.get("uri").asText() : null;
    String mime = r.hasNonNull("mimeType") ? r.get("mimeType").asText() : null;
    if (r.path("text").isTextual()) {
      if (uri == null) {
        throw new BadItem("a text resource needs a uri");
      }
      return new Content.EmbeddedResource(
          uri, mime == null ? "text/plain" : mime, r.get("text").asText(), null);
    }
    if (r.path("blob").isTextual()) {
      if (uri == null) {
        throw new BadItem("a blob resource needs a uri");
      }
      checkBase64(r.get("blob").asText());
      return new Content.EmbeddedResource(uri, mime, null, r.get("blob").asText());
    }
    if (r.hasNonNull("path")) {
      Path file = file(r.get("path").asText(), workDir);
      byte[] bytes = read(file, budget);
      if (mime == null) {
        mime = guess(file);
      }
      String fileUri = uri != null ? uri : file.toUri().toString();
      if (mime != null && isText(mime)) {
        return new Content.EmbeddedResource(
            fileUri, mime, new String(bytes, StandardCharsets.UTF_8), null);
      }
      return new Content.EmbeddedResource(
          fileUri,
          mime == null ? "application/octet-stream" : mime,
          null,
          Base64.getEncoder().encodeToString(bytes));
    }
    throw new BadItem("a resource needs text, blob or path");
  }

  private static boolean isText(String mime) {
    return mime.startsWith("text/")
        || mime.equals("application/json")
        || mime.equals("application/yaml")
        || mime.equals("application/xml");
  }

  private static Path file(String path, Path workDir) throws BadItem {
    Path file;
    try {
      file = workDir.resolve(path).normalize();
    } catch (RuntimeException e) {
      throw new BadItem("'" + path + "' is not a usable path");
    }
    if (!Files.isRegularFile(file)) {
      throw new BadItem("'" + path + "' is not a regular file");
    }
    return file;
  }

  private static byte[] read(Path file, long[] budget) throws BadItem {
    try {
      long size = Files.size(file);
      if (size > MAX_FILE_BYTES || size > budget[0]) {
        throw new BadItem(
            "'"
                + file.getFileName()
                + "' is "
                + size
                + " bytes, over the limit of "
                + Math.min(MAX_FILE_BYTES, budget[0]));
      }
      byte[] bytes;
      try (InputStream in = Files.newInputStream(file)) {
        bytes = in.readNBytes((int) Math.min(MAX_FILE_BYTES, budget[0]) + 1);
      }
      if (bytes.length > Math.min(MAX_FILE_BYTES, budget[0])) {
        throw new BadItem("'" + file.getFileName() + "' grew past the limit while read");
      }
      budget[0] -= bytes.length;
      return bytes;
    } catch (IOException e) {
      throw new BadItem("'" + file.getFileName() + "' could not be read");
    }
  }

  private static void checkBase64(String data) throws BadItem {
    try {
      Base64.getDecoder().decode(data);
    } catch (IllegalArgumentException e) {
      throw new BadItem("data is not base64");
    }
  }

  private static String guess(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot < 0 ? null : MIME_TYPES.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
  }

  private static String tail(String text, int max) {
    String t = text == null ? "" : text.strip();
    return t.length() <= max ? t : "…" + t.substring(t.length() - max);
  }
}
