package dev.skillport.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.ToolInvocation;
import java.util.Locale;
import java.util.Optional;

/**
 * Typed access to a call's arguments (a JSON object). A required getter throws {@link
 * ArgumentException} when the argument is missing, null or of another type; a getter with a default
 * returns the default only when the argument is absent or null, and still refuses a wrong type.
 * Numbers are not parsed from strings.
 */
public final class Arguments {
  private final JsonNode object;

  private Arguments(JsonNode object) {
    this.object =
        object == null || !object.isObject() ? JsonNodeFactory.instance.objectNode() : object;
  }

  /** The arguments of {@code invocation}. */
  public static Arguments of(ToolInvocation invocation) {
    return new Arguments(invocation.arguments());
  }

  /** Arguments from a JSON object; anything else reads as no arguments. */
  public static Arguments of(JsonNode object) {
    return new Arguments(object);
  }

  /** Whether {@code name} is present and not null. */
  public boolean has(String name) {
    return optional(name).isPresent();
  }

  /** The raw value of {@code name}, when present and not null. */
  public Optional<JsonNode> optional(String name) {
    JsonNode value = object.get(name);
    return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
  }

  /** A required string. */
  public String string(String name) {
    return text(name, required(name));
  }

  /** A string, or {@code fallback} when absent. */
  public String string(String name, String fallback) {
    return optional(name).map(v -> text(name, v)).orElse(fallback);
  }

  /** A string when present. */
  public Optional<String> optionalString(String name) {
    return optional(name).map(v -> text(name, v));
  }

  /** A required integer (a JSON number without a fraction, in the {@code long} range). */
  public long integer(String name) {
    return whole(name, required(name));
  }

  /** An integer, or {@code fallback} when absent. */
  public long integer(String name, long fallback) {
    return optional(name).map(v -> whole(name, v)).orElse(fallback);
  }

  /** A required number. */
  public double number(String name) {
    return decimal(name, required(name));
  }

  /** A number, or {@code fallback} when absent. */
  public double number(String name, double fallback) {
    return optional(name).map(v -> decimal(name, v)).orElse(fallback);
  }

  /** A required boolean. */
  public boolean bool(String name) {
    return truth(name, required(name));
  }

  /** A boolean, or {@code fallback} when absent. */
  public boolean bool(String name, boolean fallback) {
    return optional(name).map(v -> truth(name, v)).orElse(fallback);
  }

  /** The whole arguments object (read-only by convention). */
  public JsonNode json() {
    return object;
  }

  private JsonNode required(String name) {
    return optional(name)
        .orElseThrow(() -> new ArgumentException(name, "missing required argument '" + name + "'"));
  }

  private static String text(String name, JsonNode value) {
    if (!value.isTextual()) {
      throw wrongType(name, "a string", value);
    }
    return value.textValue();
  }

  private static long whole(String name, JsonNode value) {
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    if (value.isNumber()
        && value.doubleValue() == Math.rint(value.doubleValue())
        && value.canConvertToLong()) {
      return value.longValue();
    }
    throw wrongType(name, "an integer", value);
  }

  private static double decimal(String name, JsonNode value) {
    if (!value.isNumber()) {
      throw wrongType(name, "a number", value);
    }
    return value.doubleValue();
  }

  private static boolean truth(String name, JsonNode value) {
    if (!value.isBoolean()) {
      throw wrongType(name, "a boolean", value);
    }
    return value.booleanValue();
  }

  private static ArgumentException wrongType(String name, String expected, JsonNode value) {
    return new ArgumentException(
        name,
        "argument '"
            + name
            + "' must be "
            + expected
            + ", got "
            + value.getNodeType().name().toLowerCase(Locale.ROOT));
  }
}
