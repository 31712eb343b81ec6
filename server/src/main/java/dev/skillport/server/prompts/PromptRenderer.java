package dev.skillport.server.prompts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.resource.ResourceContents;
import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.runtime.secrets.Redactor;
import dev.skillport.server.resources.ResourcesFeature;
import dev.skillport.server.resources.SkillFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * Renders a prompt into {@code prompts/get} messages: {@code {{arg}}} placeholders are substituted
 * in every string (a missing optional argument renders empty), and each content item of a {@code
 * messages} entry becomes text, image, audio, an embedded resource or a resource link.
 */
final class PromptRenderer {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Reads a URI as the requesting session sees it, for embedded resources given by URI only. */
  @FunctionalInterface
  interface ResourceReader {
    Optional<ResourceContents> read(String uri) throws McpException;
  }

  private final PromptDefinition prompt;
  private final Map<String, String> arguments;
  private final ResourceReader resources;
  private final Redactor redactor;

  PromptRenderer(
      PromptDefinition prompt,
      Map<String, String> arguments,
      ResourceReader resources,
      Redactor redactor) {
    this.redactor = redactor;
    this.prompt = prompt;
    this.arguments = Map.copyOf(arguments);
    this.resources = resources;
  }

  /** The {@code GetPromptResult}. */
  ObjectNode render() throws McpException {
    for (PromptDefinition.Argument a : prompt.arguments()) {
      if (a.required() && !arguments.containsKey(a.name())) {
        throw new McpException(
            ErrorKind.INVALID_PARAMS,
            "prompt '" + prompt.name() + "' needs the argument '" + a.name() + "'");
      }
    }
    ObjectNode result = NODES.objectNode();
    if (!prompt.description().isEmpty()) {
      result.put("description", prompt.description());
    }
    ArrayNode messages = result.putArray("messages");
    if (prompt.messages() == null || !prompt.template().isBlank()) {
      messages.add(message("user", text(substitute(prompt.template()))));
    }
    if (prompt.messages() != null) {
      for (JsonNode m : prompt.messages()) {
        String role = m.path("role").asText("user");
        if (!role.equals("user") && !role.equals("assistant")) {
          throw authorError("role must be user or assistant, not '" + role + "'");
        }
        JsonNode content = m.has("content") ? m.get("content") : m;
        messages.add(message(role, content(content)));
      }
    }
    return result;
  }

  String substitute(String text) {
    Matcher m = SessionPrompts.PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(arguments.getOrDefault(m.group(1), "")));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static ObjectNode message(String role, ObjectNode content) {
    ObjectNode m = NODES.objectNode().put("role", role);
    m.set("content", content);
    return m;
  }

  private static ObjectNode text(String text) {
    return NODES.objectNode().put("type", "text").put("text", text);
  }

  private String field(JsonNode spec, String key) {
    JsonNode v = spec.get(key);
    return v == null || v.isNull() ? null : substitute(v.asText());
  }

  private ObjectNode content(JsonNode spec) throws McpException {
    if (spec.isTextual()) {
      return text(substitute(spec.asText()));
    }
    if (!spec.isObject()) {
      throw authorError("a message content must be a string or a mapping");
    }
    String type = spec.path("type").asText("text");
    switch (type) {
      case "text":
        return text(field(spec, "text") == null ? "" : field(spec, "text"));
      case "image":
      case "audio":
        return media(type, spec);
      case "resource":
        return embedded(spec);
      case "resource_link":
        return link(spec);
      default:
        throw authorError("unknown content type '" + type + "'");
    }
  }

  private ObjectNode media(String type, JsonNode spec) throws McpException {
    String data = field(spec, "data");
    String mime = field(spec, "mimeType");
    if (data == null) {
      Path file = file(spec);
      data = Base64.getEncoder().encodeToString(bytes(file));
      mime = mime == null ? SkillFiles.mimeType(file) : mime;
    }
    if (mime == null) {
      throw authorError(type + " content needs mimeType");
    }
    return NODES.objectNode().put("type", type).put("data", data).put("mimeType", mime);
  }

  private ObjectNode embedded(JsonNode spec) throws McpException {
    String uri = field(spec, "uri");
    if (uri == null || uri.isEmpty()) {
      throw authorError("resource content needs uri");
    }
    String mime = field(spec, "mimeType");
    ResourceContents contents;
    if (spec.has("text")) {
      contents =
          ResourceContents.text(uri, mime == null ? "text/plain" : mime, field(spec, "text"));
    } else if (spec.has("blob")) {
      contents = new ResourceContents(uri, mime, null, field(spec, "blob"));
    } else if (spec.has("path")) {
      Path file = file(spec);
      contents =
          SkillFiles.contents(uri, mime == null ? SkillFiles.mimeType(file) : mime, bytes(file));
    } else {
      contents =
          resources
              .read(uri)
              .orElseThrow(
                  () ->
                      new McpException(
                          ErrorKind.INVALID_PARAMS,
                          "prompt '"
                              + prompt.name()
                              + "' embeds "
                              + uri
                              + ", which is not served"));
    }
    ObjectNode c = NODES.objectNode().put("type", "resource");
    c.set("resource", ResourcesFeature.wire(contents));
    return c;
  }

  private ObjectNode link(JsonNode spec) throws McpException {
    String uri = field(spec, "uri");
    if (uri == null || uri.isEmpty()) {
      throw authorError("resource_link content needs uri");
    }
    ObjectNode c = NODES.objectNode().put("type", "resource_link").put("uri", uri);
    String name = field(spec, "name");
    c.put("name", name == null ? uri : name);
    String mime = field(spec, "mimeType");
    if (mime != null) {
      c.put("mimeType", mime);
    }
    String description = field(spec, "description");
    if (description != null) {
      c.put("description", description);
    }
    return c;
  }

  /**
   * The file a content item's {@code path} names, by the rules resources follow: relative to the
   * prompt file, inside the skill, no hidden segment, no {@code ..}, no link leading out. A path
   * that an argument filled in is the caller's to fix; a written one is the author's.
   */
  private Path file(JsonNode spec) throws McpException {
    String path = field(spec, "path");
    if (path == null || path.isEmpty()) {
      throw authorError("content needs data or path");
    }
    Optional<Path> target =
        SkillFiles.resolveFrom(prompt.skillDir(), prompt.baseDir(), path)
            .filter(p -> !Files.isDirectory(p));
    if (target.isEmpty()) {
      String why = "the content path '" + path + "' is not a file served from the skill";
      throw spec.path("path").asText().contains("{{")
          ? new McpException(ErrorKind.INVALID_PARAMS, "prompt '" + prompt.name() + "': " + why)
          : authorError(why);
    }
    return target.get();
  }

  private byte[] bytes(Path file) throws McpException {
    try {
      return SkillFiles.read(file, redactor);
    } catch (RefusedFileException e) {
      throw authorError("the content file '" + file.getFileName() + "' " + e.predicate());
    } catch (IOException e) {
      throw new McpException(
          ErrorKind.INTERNAL_ERROR, "could not read " + file.getFileName(), null, e);
    }
  }

  private McpException authorError(String message) {
    return new McpException(
        ErrorKind.INTERNAL_ERROR,
        "prompt '" + prompt.name() + "' of skill '" + prompt.skill() + "': " + message);
  }
}
