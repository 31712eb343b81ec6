package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * The modern era's HTTP headers that mirror values of the request body ({@code
 * MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name}, {@code Mcp-Param-*}): how their
 * values are decoded and compared, and the {@code HeaderMismatch} error a disagreement is. A header
 * value is trimmed of surrounding whitespace; one made of anything but visible ASCII, spaces and
 * tabs is invalid; {@code =?base64?...?=} carries UTF-8 text that could not be sent plainly.
 */
public final class MirroredHeaders {
  /** The header that carries the request's protocol revision. */
  public static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

  /** The header that mirrors the JSON-RPC method. */
  public static final String METHOD = "Mcp-Method";

  /** The header that mirrors the tool, prompt or task name, or the resource URI. */
  public static final String NAME = "Mcp-Name";

  /** The prefix of headers that mirror tool arguments marked {@code x-mcp-header}. */
  public static final String PARAM_PREFIX = "Mcp-Param-";

  private static final String SENTINEL_START = "=?base64?";
  private static final String SENTINEL_END = "?=";
  private static final java.util.regex.Pattern BASE64 =
      java.util.regex.Pattern.compile(
          "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

  private MirroredHeaders() {}

  /**
   * The value a header stands for: trimmed, and decoded when it is in the Base64 sentinel form.
   *
   * @throws McpException {@code HEADER_MISMATCH} when the value holds characters a header may not,
   *     or its Base64 form does not decode to UTF-8 text
   */
  public static String decode(String name, String raw) throws McpException {
    String value = raw.strip();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c == '\t' || (c >= 0x20 && c <= 0x7E))) {
        throw mismatch("the " + name + " header holds a character headers may not carry");
      }
    }
    if (value.startsWith(SENTINEL_START)
        && value.endsWith(SENTINEL_END)
        && value.length() >= SENTINEL_START.length() + SENTINEL_END.length()) {
      String encoded =
          value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length());
      // Padded standard Base64 only: the decoder would also take a value missing its padding.
      if (!BASE64.matcher(encoded).matches()) {
        throw mismatch("the " + name + " header is not valid (padded) Base64");
      }
      try {
        byte[] bytes = Base64.getDecoder().decode(encoded);
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(java.nio.ByteBuffer.wrap(bytes))
            .toString();
      } catch (IllegalArgumentException | CharacterCodingException e) {
        throw mismatch("the " + name + " header is not valid Base64 of UTF-8 text");
      }
    }
    return value;
  }

  /**
   * Checks that a header mirrors a body value: required when the body has the value, equal to it
   * once decoded (integers compare as numbers, booleans as {@code true}/{@code false}).
   *
   * @param header the header's raw value, or null when absent
   * @param body the body's value, or null (or JSON null) when absent
   * @throws McpException {@code HEADER_MISMATCH} naming the header and what is wrong
   */
  public static void check(String name, String header, JsonNode body) throws McpException {
    boolean bodyHas = body != null && !body.isNull() && !body.isMissingNode();
    if (!bodyHas) {
      return;
    }
    if (header == null) {
      throw mismatch("the " + name + " header is required: the body carries " + shown(body));
    }
    String value = decode(name, header);
    if (!matches(value, body)) {
      throw mismatch(
          "Header mismatch: "
              + name
              + " header value '"
              + value
              + "' does not match body value "
              + shown(body));
    }
  }

  /** Whether a decoded header value stands for {@code body}. */
  static boolean matches(String value, JsonNode body) {
    if (body.isTextual()) {
      return value.equals(body.asText());
    }
    if (body.isBoolean()) {
      return value.equals(body.asBoolean() ? "true" : "false");
    }
    if (body.isNumber()) {
      return number(value).map(v -> v.compareTo(body.decimalValue()) == 0).orElse(false);
    }
    return false;
  }

  private static Optional<BigDecimal> number(String value) {
    try {
      return Optional.of(new BigDecimal(value));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static String shown(JsonNode body) {
    String text = body.isTextual() ? "'" + body.asText() + "'" : body.toString();
    return text.length() > 200 ? text.substring(0, 200) + "…" : text;
  }

  /** A {@code HeaderMismatch} error with {@code message}. */
  public static McpException mismatch(String message) {
    return new McpException(ErrorKind.HEADER_MISMATCH, message);
  }
}
