package dev.skillport.loader.skillmd;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a YAML tree into plain Java values (ordered maps, lists, strings, numbers, booleans, null),
 * the verbatim form the manifest keeps. Recursion is bounded by the YAML depth limit.
 */
final class YamlValues {
  private YamlValues() {}

  static Object toJava(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      return toMap(node);
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      for (JsonNode item : node) {
        list.add(toJava(item));
      }
      return list;
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isNumber()) {
      return node.numberValue();
    }
    return node.asText();
  }

  static Map<String, Object> toMap(JsonNode object) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      map.put(e.getKey(), toJava(e.getValue()));
    }
    return map;
  }

  /** A short name for the YAML type of {@code node}, for messages. */
  static String typeName(JsonNode node) {
    if (node == null || node.isNull()) {
      return "null";
    }
    if (node.isObject()) {
      return "a mapping";
    }
    if (node.isArray()) {
      return "a list";
    }
    if (node.isBoolean()) {
      return "a boolean";
    }
    if (node.isNumber()) {
      return "a number";
    }
    return "a string";
  }
}
