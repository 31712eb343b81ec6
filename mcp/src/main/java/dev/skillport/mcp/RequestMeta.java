package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * What a modern-era request says about itself in {@code params._meta}: the revision it speaks, the
 * client's capabilities and identity for this request, the log level it wants, and its trace
 * context. Read once per request, before any handler runs.
 *
 * @param version the protocol revision of the request
 * @param clientCapabilities the capabilities declared for this request (an object)
 * @param clientInfo the client's name and version, or a missing node
 * @param logLevel the lowest log level the client wants for this request, or null for none at all
 * @param traceparent the W3C trace context of the request, or null
 */
public record RequestMeta(
    ProtocolVersion version,
    JsonNode clientCapabilities,
    JsonNode clientInfo,
    LogLevel logLevel,
    String traceparent) {
  /** The {@code _meta} key of the request's protocol revision. */
  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

  /** The {@code _meta} key of the client's capabilities for the request. */
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

  /** The {@code _meta} key of the client's name and version. */
  public static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

  /** The {@code _meta} key of the lowest log level the client wants for the request. */
  public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";

  /** The {@code _meta} key of a result's server identity. */
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  /** The {@code _meta} key that tags notifications of a {@code subscriptions/listen} stream. */
  public static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  /** The {@code _meta} key of W3C trace context (OpenTelemetry). */
  public static final String TRACEPARENT = "traceparent";

  public RequestMeta {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(clientCapabilities, "clientCapabilities");
    Objects.requireNonNull(clientInfo, "clientInfo");
  }

  /**
   * Reads the modern-era fields of a request's params.
   *
   * @throws McpException {@code INVALID_PARAMS} when {@code _meta}, its protocol version or its
   *     client capabilities are missing or malformed; {@code UNSUPPORTED_PROTOCOL_VERSION} (with
   *     the supported list) when the version is not one of ours of the modern era
   */
  public static RequestMeta read(JsonNode params) throws McpException {
    checkStructure(params);
    JsonNode meta = params.get("_meta");
    JsonNode version = meta.get(PROTOCOL_VERSION);
    JsonNode capabilities = meta.get(CLIENT_CAPABILITIES);
    ProtocolVersion known =
        ProtocolVersion.fromWire(version.asText())
            .filter(v -> v.era() == Era.MODERN)
            .orElseThrow(() -> unsupported(version.asText()));
    JsonNode level = meta.get(LOG_LEVEL);
    LogLevel logLevel = null;
    if (level != null && !level.isNull()) {
      logLevel =
          LogLevel.fromWire(level.asText(""))
              .orElseThrow(
                  () ->
                      new McpException(
                          ErrorKind.INVALID_PARAMS,
                          "_meta." + LOG_LEVEL + " is not a log level: " + level));
    }
    JsonNode info = meta.get(CLIENT_INFO);
    JsonNode trace = meta.get(TRACEPARENT);
    return new RequestMeta(
        known,
        capabilities,
        info != null && info.isObject() ? info : JsonNodeFactory.instance.missingNode(),
        logLevel,
        trace != null && trace.isTextual() && validTraceparent(trace.asText())
            ? trace.asText()
            : null);
  }

  /**
   * Checks that a request's params carry the fields every modern request must: {@code _meta} with a
   * protocol version (a string) and client capabilities (an object).
   *
   * @throws McpException {@code INVALID_PARAMS} naming what is missing
   */
  public static void checkStructure(JsonNode params) throws McpException {
    JsonNode meta = params == null ? null : params.get("_meta");
    if (meta == null || !meta.isObject()) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS,
          "params._meta is required: it carries "
              + PROTOCOL_VERSION
              + " and "
              + CLIENT_CAPABILITIES);
    }
    JsonNode version = meta.get(PROTOCOL_VERSION);
    if (version == null || !version.isTextual() || version.asText().isBlank()) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS, "_meta." + PROTOCOL_VERSION + " (a string) is required");
    }
    JsonNode capabilities = meta.get(CLIENT_CAPABILITIES);
    if (capabilities == null || !capabilities.isObject()) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS, "_meta." + CLIENT_CAPABILITIES + " (an object) is required");
    }
  }

  /** The protocol version a request's {@code _meta} names, if it names one. */
  public static Optional<String> declaredVersion(JsonNode params) {
    JsonNode version = params == null ? null : params.path("_meta").get(PROTOCOL_VERSION);
    return version != null && version.isTextual()
        ? Optional.of(version.asText())
        : Optional.empty();
  }

  /** The error that answers a request for a revision the server does not speak. */
  public static McpException unsupported(String requested) {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    ProtocolVersion.supportedWire().forEach(data.putArray("supported")::add);
    data.put("requested", requested);
    return new McpException(
        ErrorKind.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version: " + requested, data);
  }

  /** Whether the client declared capability {@code name} for this request. */
  public boolean clientSupports(String name) {
    JsonNode capability = clientCapabilities.get(name);
    return capability != null && !capability.isNull();
  }

  /** Whether the client declared extension {@code id} for this request. */
  public boolean clientSupportsExtension(String id) {
    JsonNode extension = clientCapabilities.path("extensions").get(id);
    return extension != null && !extension.isNull();
  }

  /** W3C trace context: version 00, 32 hex trace id, 16 hex parent id, 2 hex flags. */
  static boolean validTraceparent(String value) {
    return value.matches("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")
        && !value.startsWith("ff")
        && !value.substring(3, 35).equals("0".repeat(32))
        && !value.substring(36, 52).equals("0".repeat(16));
  }
}
