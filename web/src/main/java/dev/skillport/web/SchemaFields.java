package dev.skillport.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool's input schema as a person reads a form: one field per property, with its type, whether it
 * is required, its description, default, allowed values and limits, and the fields of a nested
 * object. Bounded in depth and count, so a hostile schema cannot make a page huge.
 */
final class SchemaFields {
  static final int MAX_DEPTH = 4;
  static final int MAX_FIELDS = 200;
  static final String MASK = "[REDACTED]";
  private static final int MAX_VALUE_CHARS = 200;

  private final Masking masking;
  private int budget;

  private SchemaFields(Masking masking) {
    this.masking = masking;
  }

  /**
   * One field of a form.
   *
   * @param type a readable type ({@code string}, {@code integer}, {@code array of string}, …)
   * @param options the allowed values of an enum, shown as a choice
   * @param limits readable constraints ({@code 1 to 100}, {@code pattern ^a+$}, …)
   * @param fields the fields of an object value
   */
  record Field(
      String name,
      String type,
      boolean required,
      String description,
      String defaultValue,
      List<String> options,
      List<String> limits,
      List<Field> fields) {
    /** The input a browser shows for this field. */
    public String input() {
      if (!options.isEmpty()) {
        return "select";
      }
      return switch (type) {
        case "boolean" -> "checkbox";
        case "integer", "number" -> "number";
        default -> fields.isEmpty() ? "text" : "group";
      };
    }
  }

  /** The fields of an object schema; empty for a schema without properties. */
  static List<Field> of(JsonNode schema, Masking masking) {
    SchemaFields reader = new SchemaFields(masking);
    reader.budget = MAX_FIELDS;
    return reader.fields(schema, 0);
  }

  private List<Field> fields(JsonNode schema, int depth) {
    JsonNode properties = schema == null ? null : schema.get("properties");
    if (properties == null || !properties.isObject() || depth >= MAX_DEPTH) {
      return List.of();
    }
    Set<String> required = new HashSet<>();
    for (JsonNode r : schema.path("required")) {
      if (r.isTextual()) {
        required.add(r.asText());
      }
    }
    List<Field> out = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> it = properties.properties().iterator();
    while (it.hasNext() && budget > 0) {
      Map.Entry<String, JsonNode> e = it.next();
      budget--;
      JsonNode p = e.getValue();
      // The default or allowed values of an argument named like a secret are not shown.
      boolean secret = masking.secretName(e.getKey());
      out.add(
          new Field(
              e.getKey(),
              type(p),
              required.contains(e.getKey()),
              masking.text(p.path("description").asText("")),
              !p.has("default") ? null : secret ? MASK : value(p.get("default")),
              secret ? List.of() : options(p),
              secret ? List.of() : limits(p),
              fields(p.path("type").asText("").equals("array") ? p.path("items") : p, depth + 1)));
    }
    return out;
  }

  /**
   * A copy of {@code schema} for showing as JSON: the {@code default}, {@code examples}, {@code
   * enum} and {@code const} of every property named like a secret replaced by the mask.
   */
  static JsonNode masked(JsonNode schema, Masking masking) {
    JsonNode copy = schema.deepCopy();
    maskProperties(copy, masking, 0);
    return copy;
  }

  private static void maskProperties(JsonNode node, Masking masking, int depth) {
    if (depth > 32 || !node.isContainerNode()) {
      return;
    }
    JsonNode properties = node.get("properties");
    if (properties instanceof ObjectNode props) {
      for (Map.Entry<String, JsonNode> e : props.properties()) {
        if (masking.secretName(e.getKey()) && e.getValue() instanceof ObjectNode p) {
          for (String key : List.of("default", "examples", "enum", "const")) {
            if (p.has(key)) {
              p.put(key, MASK);
            }
          }
        }
      }
    }
    for (JsonNode child : node) {
      maskProperties(child, masking, depth + 1);
    }
  }

  private static String type(JsonNode p) {
    JsonNode type = p.get("type");
    String name;
    if (type == null) {
      name = p.has("properties") ? "object" : p.has("enum") ? "choice" : "any";
    } else if (type.isArray()) {
      List<String> names = new ArrayList<>();
      type.forEach(t -> names.add(t.asText()));
      name = String.join(" or ", names);
    } else {
      name = type.asText();
    }
    if (name.equals("array") && p.path("items").has("type")) {
      return "array of " + type(p.get("items"));
    }
    if (p.hasNonNull("format")) {
      return name + " (" + p.get("format").asText() + ")";
    }
    return name;
  }

  private List<String> options(JsonNode p) {
    List<String> out = new ArrayList<>();
    JsonNode values = p.has("enum") ? p.get("enum") : p.path("items").path("enum");
    for (JsonNode v : values) {
      if (out.size() >= 50) {
        break;
      }
      out.add(value(v));
    }
    return out;
  }

  private List<String> limits(JsonNode p) {
    List<String> out = new ArrayList<>();
    if (p.has("minimum") || p.has("maximum")) {
      out.add(
          (p.has("minimum") ? p.get("minimum").asText() : "…")
              + " to "
              + (p.has("maximum") ? p.get("maximum").asText() : "…"));
    }
    if (p.has("exclusiveMinimum")) {
      out.add("more than " + p.get("exclusiveMinimum").asText());
    }
    if (p.has("exclusiveMaximum")) {
      out.add("less than " + p.get("exclusiveMaximum").asText());
    }
    if (p.has("minLength") || p.has("maxLength")) {
      out.add(
          "length "
              + (p.has("minLength") ? p.get("minLength").asText() : "0")
              + " to "
              + (p.has("maxLength") ? p.get("maxLength").asText() : "…"));
    }
    if (p.has("minItems") || p.has("maxItems")) {
      out.add(
          "items "
              + (p.has("minItems") ? p.get("minItems").asText() : "0")
              + " to "
              + (p.has("maxItems") ? p.get("maxItems").asText() : "…"));
    }
    if (p.hasNonNull("pattern")) {
      out.add("pattern " + clip(p.get("pattern").asText()));
    }
    if (p.has("const")) {
      out.add("always " + value(p.get("const")));
    }
    return out;
  }

  private String value(JsonNode v) {
    return masking.text(clip(v.isTextual() ? v.asText() : v.toString()));
  }

  private static String clip(String s) {
    return s.length() <= MAX_VALUE_CHARS ? s : s.substring(0, MAX_VALUE_CHARS) + "…";
  }
}
