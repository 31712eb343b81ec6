package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Conversions from parsed YAML values (Jackson nodes) to the plain values the records hold. */
final class YamlValues {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private YamlValues() {}

  /** The text of a scalar, or null for a missing or null value. */
  static String text(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode() ? null : node.asText();
  }

  /** A value that may be a CSV string or a list of strings, as a list. */
  static List<String> stringList(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (node.isArray()) {
      for (JsonNode item : node) {
        String s = item.asText().strip();
        if (!s.isEmpty()) {
          out.add(s);
        }
      }
    } else {
      out.addAll(SiblingPaths.splitList(node.asText()));
    }
    return out;
  }

  /** A YAML value as maps, lists and scalars. */
  static Object plain(JsonNode node) {
    return node == null ? null : MAPPER.convertValue(node, Object.class);
  }

  /** A mapping as a string-keyed map of plain values. */
  static Map<String, Object> plainMap(JsonNode node) {
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    if (node != null && node.isObject()) {
      node.properties().forEach(e -> out.put(e.getKey(), plain(e.getValue())));
    }
    return out;
  }

  /** A plain value (as found in the typed metadata) as a Jackson tree. */
  static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }
}
