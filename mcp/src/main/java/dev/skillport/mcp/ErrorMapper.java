package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns failures into JSON-RPC error responses. Unexpected exceptions become an
 * internal error whose message says nothing about the server's insides; the detail goes to the log.
 */
public final class ErrorMapper {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ErrorMapper() {}

  /** The JSON-RPC code of a kind in the legacy era. */
  static int code(ErrorKind kind) {
    return code(kind, Era.LEGACY);
  }

  /**
   * The JSON-RPC code of a kind in an era: a missing resource is {@code -32002} before 2026-07-28
   * and {@code -32602} (invalid params) from then on; the codes from {@code -32020} are those the
   * 2026-07-28 revision allocates.
   */
  static int code(ErrorKind kind, Era era) {
    return switch (kind) {
      case PARSE_ERROR -> -32700;
      case INVALID_REQUEST -> -32600;
      case METHOD_NOT_FOUND -> -32601;
      case INVALID_PARAMS -> -32602;
      case INTERNAL_ERROR -> -32603;
      case RESOURCE_NOT_FOUND -> era == Era.MODERN ? -32602 : -32002;
      case HEADER_MISMATCH -> -32020;
      case MISSING_CLIENT_CAPABILITY -> -32021;
      case UNSUPPORTED_PROTOCOL_VERSION -> -32022;
    };
  }

  /**
   * A complete JSON-RPC error response for {@code failure}, answering request {@code id} (null when
   * the id could not be read), with the legacy era's codes.
   */
  public static ObjectNode toResponse(JsonNode id, Throwable failure) {
    return toResponse(id, failure, Era.LEGACY);
  }

  /** Like {@link #toResponse(JsonNode, Throwable)}, with the codes of {@code era}. */
  public static ObjectNode toResponse(JsonNode id, Throwable failure, Era era) {
    McpException mcp = toMcpException(failure);
    ObjectNode error = NODES.objectNode();
    error.put("code", code(mcp.kind(), era));
    error.put("message", mcp.getMessage());
    mcp.data().ifPresent(data -> error.set("data", data));
    ObjectNode response = NODES.objectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id == null ? NullNode.getInstance() : id);
    response.set("error", error);
    return response;
  }

  /**
   * The HTTP status that answers a modern-era error: 404 for an unknown method, 400 for a request
   * the server refuses to process (bad {@code _meta}, headers, version or capabilities), else 200.
   * {@code envelope} says the request was refused before any handler saw it.
   */
  public static int httpStatus(JsonNode errorResponse, boolean envelope) {
    int code = errorResponse.path("error").path("code").asInt(0);
    if (code == code(ErrorKind.METHOD_NOT_FOUND)) {
      return 404;
    }
    if (envelope
        || code == code(ErrorKind.HEADER_MISMATCH)
        || code == code(ErrorKind.MISSING_CLIENT_CAPABILITY)
        || code == code(ErrorKind.UNSUPPORTED_PROTOCOL_VERSION)) {
      return 400;
    }
    return 200;
  }

  /**
   * The protocol failure a throwable stands for; anything but an {@link McpException} is internal.
   */
  static McpException toMcpException(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof McpException mcp) {
      if (mcp.kind() == ErrorKind.INTERNAL_ERROR && mcp.getCause() != null) {
        LOG.warn("Internal error: {}", mcp.getMessage(), mcp.getCause());
      }
      return mcp;
    }
    LOG.error("Unexpected failure while handling a request", cause);
    return new McpException(ErrorKind.INTERNAL_ERROR, "Internal error");
  }
}
