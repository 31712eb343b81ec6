package dev.skillport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Makes an input schema safe for clients that only understand simple schemas: no {@code anyOf},
 * {@code oneOf}, {@code allOf}, {@code not}, {@code if/then/else}; nullable unions collapsed; the
 * root an object with {@code properties}. The full schema is still what calls are validated
 * against. A schema that declares {@code $schema} is listed unchanged: its author asked for a
 * dialect explicitly.
 */
final class SchemaSimplifier {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> DROPPED = List.of("not", "if", "then", "else");

  private SchemaSimplifier() {}

  static ObjectNode simplify(JsonNode schema) {
    if (schema != null && schema.isObject() && schema.has("$schema")) {
      return (ObjectNode) schema.deepCopy();
    }
    ObjectNode root =
        schema != null && schema.isObject()
            ? simplifyNode((ObjectNode) schema)
            : NODES.objectNode();
    JsonNode type = root.get("type");
    if (type == null || !type.isTextual() || !"object".equals(type.asText())) {
      root.put("type", "object");
    }
    if (!root.has("properties")) {
      root.set("properties", NODES.objectNode());
    }
    return root;
  }

  private static ObjectNode simplifyNode(ObjectNode in) {
    ObjectNode out = NODES.objectNode();
    for (Map.Entry<String, JsonNode> e : in.properties()) {
      String key = e.getKey();
      JsonNode value = e.getValue();
      if (DROPPED.contains(key) || key.equals("anyOf") || key.equals("oneOf")) {
        continue;
      }
      if (key.equals("allOf")) {
        continue;
      }
      if (key.equals("type") && value.isArray()) {
        out.set("type", collapseTypes((ArrayNode) value));
      } else if ((key.equals("properties") || key.equals("$defs") || key.equals("definitions"))
          && value.isObject()) {
        ObjectNode props = NODES.objectNode();
        value.properties().forEach(p -> props.set(p.getKey(), child(p.getValue())));
        out.set(key, props);
      } else if ((key.equals("items") || key.equals("additionalProperties")) && value.isObject()) {
        out.set(key, simplifyNode((ObjectNode) value));
      } else {
        out.set(key, value.deepCopy());
      }
    }
    mergeUnion(in.get("anyOf"), out);
    mergeUnion(in.get("oneOf"), out);
    mergeAll(in.get("allOf"), out);
    return out;
  }

  private static JsonNode child(JsonNode value) {
    return value.isObject() ? simplifyNode((ObjectNode) value) : value.deepCopy();
  }

  /** {@code ["string","null"]} → {@code "string"}; several real types keep the first. */
  private static JsonNode collapseTypes(ArrayNode types) {
    List<String> real = new ArrayList<>();
    types.forEach(
        t -> {
          if (t.isTextual() && !"null".equals(t.asText())) {
            real.add(t.asText());
          }
        });
    return NODES.textNode(real.isEmpty() ? "null" : real.get(0));
  }

  /** A union with exactly one non-null branch becomes that branch; any other union is dropped. */
  private static void mergeUnion(JsonNode union, ObjectNode out) {
    if (union == null || !union.isArray()) {
      return;
    }
    List<JsonNode> real = new ArrayList<>();
    for (JsonNode branch : union) {
      boolean nullOnly = branch.isObject() && "null".equals(branch.path("type").asText(null));
      if (!nullOnly) {
        real.add(branch);
      }
    }
    if (real.size() == 1 && real.get(0).isObject()) {
      ObjectNode branch = simplifyNode((ObjectNode) real.get(0));
      branch.properties().forEach(f -> out.putIfAbsent(f.getKey(), f.getValue()));
    }
  }

  /** {@code allOf} branches are merged: properties united, required lists joined. */
  private static void mergeAll(JsonNode all, ObjectNode out) {
    if (all == null || !all.isArray()) {
      return;
    }
    for (JsonNode branch : all) {
      if (!branch.isObject()) {
        continue;
      }
      ObjectNode simple = simplifyNode((ObjectNode) branch);
      simple
          .properties()
          .forEach(
              f -> {
                if (f.getKey().equals("properties") && f.getValue().isObject()) {
                  ObjectNode props =
                      out.has("properties") && out.get("properties").isObject()
                          ? (ObjectNode) out.get("properties")
                          : out.putObject("properties");
                  f.getValue()
                      .properties()
                      .forEach(p -> props.putIfAbsent(p.getKey(), p.getValue()));
                } else if (f.getKey().equals("required") && f.getValue().isArray()) {
                  ArrayNode req =
                      out.has("required") && out.get("required").isArray()
                          ? (ArrayNode) out.get("required")
                          : out.putArray("required");
                  f.getValue()
                      .forEach(
                          r -> {
                            boolean present = false;
                            for (JsonNode x : req) {
                              present |= x.equals(r);
                            }
                            if (!present) {
                              req.add(r);
                            }
                          });
                } else {
                  out.putIfAbsent(f.getKey(), f.getValue());
                }
              });
    }
  }
}
