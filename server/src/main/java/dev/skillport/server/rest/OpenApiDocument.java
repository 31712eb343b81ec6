package dev.skillport.server.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.SessionState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code GET /v1/openapi.json}: an OpenAPI 3.1 document of the REST skill API over the catalog now
 * served. The fixed operations come from {@code openapi-base.json}; each tool a caller may call
 * adds an operation {@code POST /v1/tools/{skill__tool}/call} whose request body is the tool's
 * input schema, kept as a component schema named after the tool. A schema's own references ({@code
 * #/definitions/...}, {@code #/$defs/...}) are rewritten to point into that component, and its
 * {@code $schema} and {@code $id} are dropped: inside the document every schema is of the OAS 3.1
 * dialect (JSON Schema 2020-12), and a schema's own base would move its references elsewhere.
 */
final class OpenApiDocument {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SCHEMAS = "#/components/schemas/";

  private final ObjectNode base;

  OpenApiDocument(String version) {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream("openapi-base.json")) {
      base = (ObjectNode) JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ((ObjectNode) base.get("info")).put("version", version == null ? "0" : version);
  }

  /** The document for {@code catalog}, with an operation per tool {@code state} may call. */
  ObjectNode render(Catalog catalog, SessionState state) {
    ObjectNode doc = base.deepCopy();
    ObjectNode paths = (ObjectNode) doc.get("paths");
    ObjectNode schemas = (ObjectNode) doc.get("components").get("schemas");
    Set<String> taken = new HashSet<>();
    schemas.fieldNames().forEachRemaining(taken::add);
    for (String name : state.view().loadedSkills()) {
      Skill skill = catalog.skill(name).orElse(null);
      if (skill == null) {
        continue;
      }
      for (ToolSpec tool : skill.tools()) {
        String qualified = RestApi.qualified(skill, tool);
        String key = componentKey(qualified, taken);
        schemas.set(key, schema(tool.inputSchema(), SCHEMAS + key));
        paths.set("/v1/tools/" + qualified + "/call", operation(skill, tool, key));
      }
    }
    return doc;
  }

  /** A component name for {@code qualified}: OAS allows {@code [a-zA-Z0-9._-]} only. */
  private static String componentKey(String qualified, Set<String> taken) {
    String key = qualified.replaceAll("[^a-zA-Z0-9._-]", "_");
    String unique = key;
    for (int i = 2; !taken.add(unique); i++) {
      unique = key + "_" + i;
    }
    return unique;
  }

  private static ObjectNode operation(Skill skill, ToolSpec tool, String key) {
    ObjectNode op = NODES.objectNode();
    op.put("operationId", "call_" + key);
    op.putArray("tags").add(skill.name());
    op.put("summary", firstLine(tool.description()));
    if (!tool.description().isBlank()) {
      op.put("description", tool.description());
    }
    op.putArray("parameters").addObject().put("$ref", "#/components/parameters/async");
    ObjectNode body = op.putObject("requestBody").put("required", true);
    body.putObject("content")
        .putObject("application/json")
        .putObject("schema")
        .put("$ref", SCHEMAS + key);
    ObjectNode responses = op.putObject("responses");
    responses.putObject("200").put("$ref", "#/components/responses/Called");
    responses.putObject("202").put("$ref", "#/components/responses/Queued");
    responses.putObject("default").put("$ref", "#/components/responses/CallError");
    ObjectNode post = NODES.objectNode();
    post.set("post", op);
    return post;
  }

  private static String firstLine(String text) {
    String line = text.strip().split("\n", 2)[0];
    return line.isEmpty() ? "Calls the tool" : line;
  }

  /** {@code schema} as a component at {@code at}: its local references moved there. */
  static JsonNode schema(JsonNode schema, String at) {
    JsonNode copy = schema.deepCopy();
    if (copy instanceof ObjectNode root) {
      root.remove("$schema");
      root.remove("$id");
      relocate(root, at);
    }
    return copy;
  }

  private static void relocate(JsonNode node, String at) {
    if (node instanceof ObjectNode object) {
      JsonNode ref = object.get("$ref");
      if (ref != null && ref.isTextual() && ref.asText().startsWith("#")) {
        object.put("$ref", at + ref.asText().substring(1));
      }
      object.properties().forEach(field -> relocate(field.getValue(), at));
    } else if (node instanceof ArrayNode array) {
      array.forEach(child -> relocate(child, at));
    }
  }
}
