package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Recognises the plain schemas most tools declare ({@code type}, {@code properties}, {@code
 * required}, bounds, {@code enum}, …) as valid JSON Schema 2020-12 without running the full
 * meta-schema, which walks dozens of {@code $dynamicRef}s per node and dominated load time.
 *
 * <p>The check is one-sided: {@link #certainlyValid} answers true only for schemas built from the
 * keywords listed here, each with a value the 2020-12 meta-schema accepts (formats are annotations
 * there, so {@code pattern} and {@code format} need only be strings). Anything else, including any
 * keyword it does not know, answers false and the caller runs the full meta-schema, so every
 * diagnostic still comes from the real validator.
 */
final class MetaSchemaShortcut {
  private static final Set<String> SIMPLE_TYPES =
      Set.of("array", "boolean", "integer", "null", "number", "object", "string");

  /** Keywords whose value may be anything. */
  private static final Set<String> ANY_VALUE = Set.of("default", "const");

  /** Keywords whose value must be a string. */
  private static final Set<String> STRINGS =
      Set.of("title", "description", "$comment", "format", "pattern");

  /** Keywords whose value must be a non-negative integer. */
  private static final Set<String> COUNTS =
      Set.of(
          "minLength",
          "maxLength",
          "minItems",
          "maxItems",
          "minProperties",
          "maxProperties",
          "minContains",
          "maxContains");

  /** Keywords whose value must be a number. */
  private static final Set<String> NUMBERS =
      Set.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum");

  /** Keywords whose value must be a boolean. */
  private static final Set<String> FLAGS =
      Set.of("uniqueItems", "readOnly", "writeOnly", "deprecated");

  /** Keywords whose value must itself be a schema. */
  private static final Set<String> SUBSCHEMAS =
      Set.of("items", "additionalProperties", "not", "contains", "propertyNames");

  /** Keywords whose value must be a non-empty list of schemas. */
  private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf", "prefixItems");

  /** Lists up to this long are checked for duplicates pair by pair, longer ones with a set. */
  private static final int MAX_SCANNED_LIST = 16;

  /** Every known keyword and its rule: one lookup per keyword instead of one per set. */
  private static final Map<String, Rule> RULES = rules();

  private MetaSchemaShortcut() {}

  /**
   * True when {@code schema} is certainly a valid JSON Schema 2020-12; false means "not known",
   * never "invalid".
   */
  static boolean certainlyValid(JsonNode schema) {
    if (schema.isBoolean()) {
      return true;
    }
    if (!schema.isObject()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> field : schema.properties()) {
      if (!keywordValid(field.getKey(), field.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static boolean keywordValid(String key, JsonNode value) {
    Rule rule = RULES.get(key);
    if (rule == null) {
      return false;
    }
    switch (rule) {
      case ANY:
        return true;
      case STRING:
        return value.isTextual();
      case COUNT:
        return value.isIntegralNumber() && value.bigIntegerValue().signum() >= 0;
      case NUMBER:
        return value.isNumber();
      case FLAG:
        return value.isBoolean();
      case SUBSCHEMA:
        return certainlyValid(value);
      case SCHEMA_LIST:
        return value.isArray() && !value.isEmpty() && allSchemas(value);
      case TYPE:
        return typeValid(value);
      case PROPERTIES:
        return value.isObject() && allSchemas(value);
      case REQUIRED:
        return value.isArray() && uniqueStrings(value, null);
      case LIST:
        return value.isArray();
      case MULTIPLE_OF:
      default:
        return value.isNumber() && value.decimalValue().signum() > 0;
    }
  }

  /** What a known keyword's value must be. */
  private enum Rule {
    ANY,
    STRING,
    COUNT,
    NUMBER,
    FLAG,
    SUBSCHEMA,
    SCHEMA_LIST,
    TYPE,
    PROPERTIES,
    REQUIRED,
    LIST,
    MULTIPLE_OF
  }

  private static Map<String, Rule> rules() {
    Map<String, Rule> rules = new HashMap<>();
    ANY_VALUE.forEach(k -> rules.put(k, Rule.ANY));
    STRINGS.forEach(k -> rules.put(k, Rule.STRING));
    COUNTS.forEach(k -> rules.put(k, Rule.COUNT));
    NUMBERS.forEach(k -> rules.put(k, Rule.NUMBER));
    FLAGS.forEach(k -> rules.put(k, Rule.FLAG));
    SUBSCHEMAS.forEach(k -> rules.put(k, Rule.SUBSCHEMA));
    SCHEMA_LISTS.forEach(k -> rules.put(k, Rule.SCHEMA_LIST));
    rules.put("type", Rule.TYPE);
    rules.put("properties", Rule.PROPERTIES);
    rules.put("required", Rule.REQUIRED);
    rules.put("enum", Rule.LIST);
    rules.put("examples", Rule.LIST);
    rules.put("multipleOf", Rule.MULTIPLE_OF);
    // A HashMap, never changed after this: keywords hash once (shared strings) and look up fast.
    return rules;
  }

  private static boolean typeValid(JsonNode value) {
    if (value.isTextual()) {
      return SIMPLE_TYPES.contains(value.textValue());
    }
    return value.isArray() && !value.isEmpty() && uniqueStrings(value, SIMPLE_TYPES);
  }

  /** Every element (of a list, or value of a mapping) is certainly a valid schema. */
  private static boolean allSchemas(JsonNode container) {
    for (JsonNode element : container) {
      if (!certainlyValid(element)) {
        return false;
      }
    }
    return true;
  }

  /** A list of distinct strings, each in {@code allowed} unless that is null. */
  private static boolean uniqueStrings(JsonNode list, Set<String> allowed) {
    int size = list.size();
    // Lists here are short ("required", "type"): comparing pairs beats building a set.
    Set<String> seen = size > MAX_SCANNED_LIST ? new HashSet<>() : null;
    for (int i = 0; i < size; i++) {
      JsonNode element = list.get(i);
      if (!element.isTextual()
          || (allowed != null && !allowed.contains(element.textValue()))
          || (seen != null ? !seen.add(element.textValue()) : seenBefore(list, i))) {
        return false;
      }
    }
    return true;
  }

  /** True when the text at {@code index} of {@code list} also stands at an earlier index. */
  private static boolean seenBefore(JsonNode list, int index) {
    String text = list.get(index).textValue();
    for (int j = 0; j < index; j++) {
      if (text.equals(list.get(j).textValue())) {
        return true;
      }
    }
    return false;
  }
}
