package dev.skillport.model.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Answers "certainly valid" for instances of one JSON Schema by walking the schema's own JSON, so
 * the full validator runs only for instances that may have problems to report. The skill loader
 * prechecks sibling files against its shipped schemas; the runtime prechecks call arguments against
 * each tool's input schema.
 *
 * <p>The check is one-sided: {@link #certainlyValid} is true only when every keyword on the
 * instance's path is one this class knows and the instance plainly satisfies it; any other keyword
 * (including {@code $id}, {@code format} and every length, count or exclusive bound it does not
 * list), any doubt (a number equal in value but not in kind, a regular expression that does not
 * compile, a boolean {@code false} schema, a reference outside the document) answers false and the
 * caller runs the real validator, which reports every diagnostic. The schema stays the single
 * source of the rules; an instance is checked in time linear in its size, plus the regular
 * expressions the schema itself declares.
 */
public final class SchemaPrecheck {
  /** Keywords that never reject an instance. */
  private static final List<String> ANNOTATIONS =
      List.of(
          "$schema",
          "$comment",
          "$defs",
          "title",
          "description",
          "default",
          "examples",
          "deprecated",
          "readOnly",
          "writeOnly");

  private final JsonNode document;
  private final Map<JsonNode, Node> compiled = new IdentityHashMap<>();
  private final Node start;

  /**
   * @param document the whole schema document, against which {@code #/...} references resolve
   * @param fragment a JSON Pointer into it ({@code ""} for the document's root schema)
   */
  public SchemaPrecheck(JsonNode document, String fragment) {
    this.document = document;
    JsonNode schema = document.at(fragment);
    this.start = schema.isMissingNode() ? Node.UNKNOWN : compile(schema);
  }

  /** True when {@code instance} is certainly valid; false means "not known", never "invalid". */
  public boolean certainlyValid(JsonNode instance) {
    return start.check(instance);
  }

  /**
   * One compiled schema: a conjunction of keyword checks. Nodes are only built while the precheck
   * is constructed and never change afterwards.
   */
  private static final class Node {
    static final Node UNKNOWN = unknown();

    final List<Check> checks = new ArrayList<>();

    /**
     * Set when the schema uses a keyword this class does not know. A flag on the node itself, not a
     * replacement node, so references captured while it was being compiled see it too.
     */
    boolean unknown;

    private static Node unknown() {
      Node node = new Node();
      node.unknown = true;
      return node;
    }

    boolean check(JsonNode instance) {
      if (unknown) {
        return false;
      }
      for (Check c : checks) {
        if (!c.passes(instance)) {
          return false;
        }
      }
      return true;
    }
  }

  /** One keyword's check. */
  @FunctionalInterface
  private interface Check {
    boolean passes(JsonNode instance);
  }

  /** Compiles a schema once; recursive references reuse the node being compiled. */
  private Node compile(JsonNode schema) {
    Node existing = compiled.get(schema);
    if (existing != null) {
      return existing;
    }
    if (schema.isBoolean()) {
      // true accepts everything; false rejects everything, which is for the validator to say.
      return schema.booleanValue() ? new Node() : Node.UNKNOWN;
    }
    if (!schema.isObject()) {
      return Node.UNKNOWN;
    }
    Node node = new Node();
    // Registered before its keywords are compiled, so a $ref cycle finds it.
    compiled.put(schema, node);
    for (Map.Entry<String, JsonNode> keyword : schema.properties()) {
      if (ANNOTATIONS.contains(keyword.getKey())) {
        continue;
      }
      Check check = keyword(keyword.getKey(), keyword.getValue(), schema);
      if (check == null) {
        node.unknown = true;
        node.checks.clear();
        return node;
      }
      node.checks.add(check);
    }
    return node;
  }

  /** The check for one keyword, or null when it is not known (or its value is unusual). */
  private Check keyword(String name, JsonNode value, JsonNode schema) {
    switch (name) {
      case "type":
        return type(value);
      case "required":
        return required(value);
      case "properties":
        return properties(value);
      case "patternProperties":
        return patternProperties(value);
      case "additionalProperties":
        return additionalProperties(value, schema);
      case "items":
        return items(value);
      case "anyOf":
        return anyOf(value);
      case "allOf":
        return allOf(value);
      case "$ref":
        return ref(value);
      case "minLength":
        return minLength(value);
      case "minimum":
        return bound(value, true);
      case "maximum":
        return bound(value, false);
      case "enum":
        return value.isArray() ? instance -> contains(value, instance) : null;
      case "const":
        return instance -> value.equals(instance);
      case "pattern":
        return pattern(value);
      default:
        return null;
    }
  }

  private static Check type(JsonNode value) {
    List<String> types = new ArrayList<>();
    if (value.isTextual()) {
      types.add(value.textValue());
    } else if (value.isArray()) {
      value.forEach(t -> types.add(t.asText()));
    } else {
      return null;
    }
    for (String t : types) {
      if (!List.of("string", "object", "array", "boolean", "null", "integer", "number")
          .contains(t)) {
        return null;
      }
    }
    return instance -> types.contains(typeOf(instance)) || typeIsNumber(types, instance);
  }

  /** The JSON type of a value; floating numbers are "number" only, never "integer". */
  private static String typeOf(JsonNode instance) {
    if (instance.isTextual()) {
      return "string";
    } else if (instance.isObject()) {
      return "object";
    } else if (instance.isArray()) {
      return "array";
    } else if (instance.isBoolean()) {
      return "boolean";
    } else if (instance.isNull()) {
      return "null";
    } else if (instance.isIntegralNumber()) {
      return "integer";
    } else if (instance.isNumber()) {
      return "number";
    }
    return "unknown";
  }

  private static boolean typeIsNumber(List<String> types, JsonNode instance) {
    return instance.isNumber() && types.contains("number");
  }

  private static Check required(JsonNode value) {
    if (!value.isArray()) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (JsonNode n : value) {
      if (!n.isTextual()) {
        return null;
      }
      names.add(n.textValue());
    }
    return instance -> {
      if (!instance.isObject()) {
        return true;
      }
      for (String n : names) {
        if (!instance.has(n)) {
          return false;
        }
      }
      return true;
    };
  }

  private Check properties(JsonNode value) {
    if (!value.isObject()) {
      return null;
    }
    Map<String, Node> nodes = new HashMap<>();
    for (Map.Entry<String, JsonNode> p : value.properties()) {
      nodes.put(p.getKey(), compile(p.getValue()));
    }
    return instance -> {
      if (!instance.isObject()) {
        return true;
      }
      for (Map.Entry<String, JsonNode> field : instance.properties()) {
        Node node = nodes.get(field.getKey());
        if (node != null && !node.check(field.getValue())) {
          return false;
        }
      }
      return true;
    };
  }

  /**
   * A compiled pattern and the schema its matching property names must satisfy. Property names
   * repeat across files ({@code read_only_hint}, ...), so answers are remembered, up to a bound.
   */
  private record PatternNode(Pattern pattern, Node node, Map<String, Boolean> answers) {
    private static final int MAX_ANSWERS = 4096;

    PatternNode(Pattern pattern, Node node) {
      this(pattern, node, new ConcurrentHashMap<>());
    }

    boolean matches(String name) {
      Boolean known = answers.get(name);
      if (known != null) {
        return known;
      }
      boolean found = pattern.matcher(name).find();
      if (answers.size() < MAX_ANSWERS) {
        answers.put(name, found);
      }
      return found;
    }
  }

  private List<PatternNode> patterns(JsonNode value) {
    List<PatternNode> patterns = new ArrayList<>();
    for (Map.Entry<String, JsonNode> p : value.properties()) {
      Pattern pattern = regex(p.getKey());
      if (pattern == null) {
        return null;
      }
      patterns.add(new PatternNode(pattern, compile(p.getValue())));
    }
    return patterns;
  }

  private Check patternProperties(JsonNode value) {
    if (!value.isObject()) {
      return null;
    }
    List<PatternNode> patterns = patterns(value);
    if (patterns == null) {
      return null;
    }
    return instance -> {
      if (!instance.isObject()) {
        return true;
      }
      for (Map.Entry<String, JsonNode> field : instance.properties()) {
        for (PatternNode p : patterns) {
          if (p.matches(field.getKey()) && !p.node().check(field.getValue())) {
            return false;
          }
        }
      }
      return true;
    };
  }

  /**
   * {@code additionalProperties} applies to the names that neither {@code properties} nor {@code
   * patternProperties} of the same schema cover.
   */
  private Check additionalProperties(JsonNode value, JsonNode schema) {
    JsonNode declared = schema.path("properties");
    JsonNode patternsNode = schema.path("patternProperties");
    if ((!declared.isMissingNode() && !declared.isObject())
        || (!patternsNode.isMissingNode() && !patternsNode.isObject())) {
      return null;
    }
    List<PatternNode> patterns = patternsNode.isObject() ? patterns(patternsNode) : List.of();
    if (patterns == null) {
      return null;
    }
    boolean forbidden = value.isBoolean() && !value.booleanValue();
    Node node = forbidden ? null : compile(value);
    return instance -> {
      if (!instance.isObject()) {
        return true;
      }
      for (Map.Entry<String, JsonNode> field : instance.properties()) {
        String name = field.getKey();
        if (declared.has(name) || matchesAny(patterns, name)) {
          continue;
        }
        if (forbidden || !node.check(field.getValue())) {
          return false;
        }
      }
      return true;
    };
  }

  private static boolean matchesAny(List<PatternNode> patterns, String name) {
    for (PatternNode p : patterns) {
      if (p.matches(name)) {
        return true;
      }
    }
    return false;
  }

  private Check items(JsonNode value) {
    if (!value.isObject() && !value.isBoolean()) {
      return null;
    }
    Node node = compile(value);
    return instance -> {
      if (!instance.isArray()) {
        return true;
      }
      for (JsonNode element : instance) {
        if (!node.check(element)) {
          return false;
        }
      }
      return true;
    };
  }

  private List<Node> schemaList(JsonNode value) {
    if (!value.isArray() || value.isEmpty()) {
      return null;
    }
    List<Node> nodes = new ArrayList<>();
    value.forEach(s -> nodes.add(compile(s)));
    return nodes;
  }

  private Check anyOf(JsonNode value) {
    List<Node> nodes = schemaList(value);
    if (nodes == null) {
      return null;
    }
    return instance -> {
      for (Node n : nodes) {
        if (n.check(instance)) {
          return true;
        }
      }
      return false;
    };
  }

  private Check allOf(JsonNode value) {
    List<Node> nodes = schemaList(value);
    if (nodes == null) {
      return null;
    }
    return instance -> {
      for (Node n : nodes) {
        if (!n.check(instance)) {
          return false;
        }
      }
      return true;
    };
  }

  /** Only references inside the same file ({@code #} or {@code #/...}) are followed. */
  private Check ref(JsonNode value) {
    if (!value.isTextual() || !value.textValue().startsWith("#")) {
      return null;
    }
    String pointer = value.textValue().substring(1);
    if (!pointer.isEmpty() && !pointer.startsWith("/")) {
      return null;
    }
    JsonNode target = document.at(pointer);
    if (target.isMissingNode()) {
      return null;
    }
    // Compiled now, never while checking: a precheck is shared by every loader thread. A target
    // being compiled right now (a cycle) comes back as its node, complete once construction ends.
    Node node = compile(target);
    return node::check;
  }

  private static Check minLength(JsonNode value) {
    if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
      return null;
    }
    int min = value.intValue();
    // Counted in code points, never more than chars: long enough either way.
    return instance ->
        !instance.isTextual()
            || instance.textValue().codePointCount(0, instance.textValue().length()) >= min;
  }

  private static Check bound(JsonNode value, boolean lower) {
    if (!value.isNumber() || !finite(value)) {
      return null;
    }
    BigDecimal limit = value.decimalValue();
    return instance -> {
      if (!instance.isNumber()) {
        return true;
      }
      if (!finite(instance)) {
        return false;
      }
      int c = instance.decimalValue().compareTo(limit);
      return lower ? c >= 0 : c <= 0;
    };
  }

  private static boolean finite(JsonNode number) {
    return !number.isFloatingPointNumber() || Double.isFinite(number.doubleValue());
  }

  private static Check pattern(JsonNode value) {
    if (!value.isTextual()) {
      return null;
    }
    Pattern pattern = regex(value.textValue());
    if (pattern == null) {
      return null;
    }
    return instance -> !instance.isTextual() || pattern.matcher(instance.textValue()).find();
  }

  private static Pattern regex(String source) {
    try {
      return Pattern.compile(source);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /** Exact node equality only: values equal in another sense are for the validator to judge. */
  private static boolean contains(JsonNode values, JsonNode instance) {
    for (JsonNode v : values) {
      if (v.equals(instance)) {
        return true;
      }
    }
    return false;
  }
}
