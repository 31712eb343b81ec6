package dev.skillport.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** Why a request to a server did not produce a result. */
public final class McpClientException extends Exception {
  private static final long serialVersionUID = 1L;

  /** The classes of failure; callers map them to their own error codes. */
  public enum Kind {
    /** No answer within the request's timeout. */
    TIMEOUT,
    /** The connection ended (the server exited, closed its output, or was stopped). */
    CLOSED,
    /** The server broke the protocol (an oversized or unreadable stream, a bad handshake). */
    PROTOCOL,
    /** The server answered with a JSON-RPC error. */
    ERROR_RESPONSE,
    /** The caller cancelled the request. */
    CANCELLED
  }

  private final Kind kind;
  private final transient JsonNode error;

  public McpClientException(Kind kind, String message) {
    this(kind, message, null);
  }

  /**
   * @param error the JSON-RPC {@code error} object for {@link Kind#ERROR_RESPONSE}, else null
   */
  public McpClientException(Kind kind, String message, JsonNode error) {
    super(message);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.error = error;
  }

  public Kind kind() {
    return kind;
  }

  /** The JSON-RPC error code of an {@link Kind#ERROR_RESPONSE}, else 0. */
  public int code() {
    return error == null ? 0 : error.path("code").asInt(0);
  }

  /** The JSON-RPC {@code error} object of an {@link Kind#ERROR_RESPONSE}, else null. */
  public JsonNode error() {
    return error;
  }
}
