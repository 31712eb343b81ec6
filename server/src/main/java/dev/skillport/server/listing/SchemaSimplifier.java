package dev.skillport.server.listing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.FrozenJson;
import dev.skillport.model.skill.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Makes an input schema safe for clients that only understand simple schemas: no {@code anyOf},
 * {@code oneOf}, {@code allOf}, {@code not}, {@code if/then/else}; nullable unions collapsed; the
 * root an object with {@code properties}. The full schema is still what calls are validated
 * against. A schema that declares {@code $schema} is listed as written (its author asked for a
 * dialect explicitly) except for what MCP requires of every listed schema: the root {@code type:
 * object}, and each {@code properties} value a schema object (a boolean schema {@code true} becomes
 * {@code {}}; a property that is {@code false}, which no argument may have, is left out).
 */
final class SchemaSimplifier {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> DROPPED = List.of("not", "if", "then", "else");

  private SchemaSimplifier() {}

  static ObjectNode simplify(JsonNode schema) {
    // A catalog's schemas are frozen and most are simple already: such a schema is listed as it
    // is, shared by every listing, instead of as an equal copy per tool and generation.
    if (schema instanceof ObjectNode object
        && FrozenJson.isFrozen(object)
        && alreadySimple(object)) {
      return object;
    }
    if (schema != null && schema.isObject() && schema.has("$schema")) {
      return objectRoot((ObjectNode) schema.deepCopy());
    }
    ObjectNode root =
        schema != null && schema.isObject()
            ? simplifyNode((ObjectNode) schema)
            : NODES.objectNode();
    ObjectNode out = objectRoot(root);
    if (!out.has("properties")) {
      out.set("properties", NODES.objectNode());
    }
    return out;
  }

  /**
   * Whether {@link #simplify} would give back a tree equal to {@code root}: an object root with
   * {@code type: "object"}, {@code properties} of schema objects and {@code required} names, and
   * nothing anywhere that {@link #simplifyNode} drops, merges or collapses.
   */
  static boolean alreadySimple(ObjectNode root) {
    if (root.has("$schema") || !"object".equals(root.path("type").textValue())) {
      return false;
    }
    JsonNode props = root.get("properties");
    if (props == null || !props.isObject()) {
      return false;
    }
    for (JsonNode property : props) {
      if (!property.isObject()) {
        return false;
      }
    }
    JsonNode required = root.get("required");
    if (required != null) {
      if (!required.isArray()) {
        return false;
      }
      for (JsonNode name : required) {
        if (!name.isTextual()) {
          return false;
        }
      }
    }
    return simpleNode(root);
  }

  /** The checks of {@link #simplifyNode}, without the copy: true when it would change nothing. */
  private static boolean simpleNode(JsonNode node) {
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String key = e.getKey();
      JsonNode value = e.getValue();
      if (DROPPED.contains(key)
          || key.equals("anyOf")
          || key.equals("oneOf")
          || key.equals("allOf")
          || (key.equals("type") && value.isArray())) {
        return false;
      }
      if ((key.equals("properties") || key.equals("$defs") || key.equals("definitions"))
          && value.isObject()) {
        for (JsonNode child : value) {
          if (child.isObject() && !simpleNode(child)) {
            return false;
          }
        }
      } else if ((key.equals("items") || key.equals("additionalProperties"))
          && value.isObject()
          && !simpleNode(value)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code schema} (changed in place) with what MCP requires of a listed schema's root: {@code
   * type: "object"}, {@code properties} a mapping of schema objects and {@code required} a list of
   * names; a {@code properties} or {@code required} of another form is removed.
   */
  static ObjectNode objectRoot(ObjectNode schema) {
    JsonNode type = schema.get("type");
    if (type == null || !type.isTextual() || !"object".equals(type.asText())) {
      schema.put("type", "object");
    }
    JsonNode props = schema.get("properties");
    if (props != null) {
      if (props.isObject()) {
        ObjectNode fixed = NODES.objectNode();
        props
            .properties()
            .forEach(
                p -> {
                  JsonNode v = p.getValue();
                  if (v.isObject()) {
                    fixed.set(p.getKey(), v);
                  } else if (v.isBoolean() && v.booleanValue()) {
                    fixed.set(p.getKey(), NODES.objectNode());
                  }
                });
        schema.set("properties", fixed);
      } else {
        schema.remove("properties");
      }
    }
    JsonNode required = schema.get("required");
    if (required != null) {
      boolean names = required.isArray();
      for (JsonNode r : required) {
        names &= r.isTextual();
      }
      if (!names) {
        schema.remove("required");
      }
    }
    return schema;
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

  /**
   * The {@code outputSchema} a client is shown for {@code tool}, or null for none. A client checks
   * results against it with its own validator (the TypeScript SDK compiles it with Ajv when it
   * lists tools, and one schema it cannot compile fails the whole list), so it is kept to what
   * every such validator reads: the root made an object schema ({@link #objectRoot}), no {@code
   * $schema} dialect, and no reference outside the schema itself (then nothing is listed; the
   * server still checks results against the full schema). A tool whose result is wrapped ({@link
   * ToolSpec#wrapsOutput()}) is shown {@code {type: object, properties: {result: <schema>},
   * required: [result]}}, with the schema's {@code $defs} moved to the root so its references still
   * resolve.
   */
  static ObjectNode output(ToolSpec tool) {
    JsonNode declared = tool.outputSchema();
    if (declared == null || hasOutsideReference(declared)) {
      return null;
    }
    if (!declared.isObject()) {
      return declared.booleanValue() ? NODES.objectNode().put("type", "object") : null;
    }
    ObjectNode copy = (ObjectNode) declared.deepCopy();
    copy.remove("$schema");
    if (!tool.wrapsOutput()) {
      return objectRoot(copy);
    }
    ObjectNode wrapper = NODES.objectNode().put("type", "object");
    for (String defs : List.of("$defs", "definitions")) {
      if (copy.has(defs)) {
        wrapper.set(defs, copy.remove(defs));
      }
    }
    wrapper.putObject("properties").set("result", copy);
    wrapper.putArray("required").add("result");
    return wrapper;
  }

  private static boolean hasOutsideReference(JsonNode node) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        String key = e.getKey();
        if ((key.equals("$ref") || key.equals("$dynamicRef"))
            && e.getValue().isTextual()
            && !e.getValue().asText().startsWith("#")) {
          return true;
        }
        if (hasOutsideReference(e.getValue())) {
          return true;
        }
      }
    } else if (node.isArray()) {
      for (JsonNode item : node) {
        if (hasOutsideReference(item)) {
          return true;
        }
      }
    }
    return false;
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
