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

  /** The JSON-RPC code of a kind. */
  static int code(ErrorKind kind) {
    return switch (kind) {
      case PARSE_ERROR -> -32700;
      case INVALID_REQUEST -> -32600;
      case METHOD_NOT_FOUND -> -32601;
      case INVALID_PARAMS -> -32602;
      case INTERNAL_ERROR -> -32603;
      case RESOURCE_NOT_FOUND -> -32002;
    };
  }

  /**
   * A complete JSON-RPC error response for {@code failure}, answering request {@code id} (null when
   * the id could not be read).
   */
  public static ObjectNode toResponse(JsonNode id, Throwable failure) {
    McpException mcp = toMcpException(failure);
    ObjectNode error = NODES.objectNode();
    error.put("code", code(mcp.kind()));
    error.put("message", mcp.getMessage());
    mcp.data().ifPresent(data -> error.set("data", data));
    ObjectNode response = NODES.objectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id == null ? NullNode.getInstance() : id);
    response.set("error", error);
    return response;
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
