package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One inbound JSON-RPC message, classified so a transport can route it (a request needs an answer,
 * notifications and responses get none) before the server handles it.
 */
public sealed interface JsonRpcMessage {

  /**
   * Classifies a parsed JSON value. Never throws: anything that is not a valid message becomes
   * {@link Malformed}.
   */
  static JsonRpcMessage of(JsonNode node) {
    if (node != null && node.isArray()) {
      if (node.isEmpty()) {
        return new Malformed(null, invalid("An empty batch is not a message"));
      }
      List<JsonRpcMessage> items = new ArrayList<>(node.size());
      node.forEach(item -> items.add(single(item)));
      return new Batch(items);
    }
    return single(node);
  }

  private static JsonRpcMessage single(JsonNode node) {
    if (node == null || !node.isObject()) {
      return new Malformed(null, invalid("A JSON-RPC message must be an object"));
    }
    JsonNode rawId = node.get("id");
    JsonNode id = validId(rawId) ? rawId : null;
    if (!"2.0".equals(node.path("jsonrpc").asText(null)) || !node.path("jsonrpc").isTextual()) {
      return new Malformed(id, invalid("jsonrpc must be \"2.0\""));
    }
    if (rawId != null && !validId(rawId)) {
      return new Malformed(null, invalid("id must be a string or an integer"));
    }
    JsonNode method = node.get("method");
    if (method != null) {
      if (!method.isTextual() || method.asText().isEmpty()) {
        return new Malformed(id, invalid("method must be a non-empty string"));
      }
      JsonNode params = node.get("params");
      if (params != null && !params.isNull() && !params.isContainerNode()) {
        return new Malformed(id, invalid("params must be an object"));
      }
      JsonNode effective =
          params == null || params.isNull() ? JsonNodeFactory.instance.objectNode() : params;
      return id == null
          ? new Notification(method.asText(), effective)
          : new Request(id, method.asText(), effective);
    }
    boolean hasResult = node.has("result");
    boolean hasError = node.has("error");
    if (id != null && hasResult != hasError) {
      return new Response(id, hasResult ? node.get("result") : null, node.get("error"));
    }
    return new Malformed(id, invalid("Not a request, notification or response"));
  }

  private static boolean validId(JsonNode id) {
    return id != null && (id.isTextual() || id.isIntegralNumber());
  }

  private static McpException invalid(String message) {
    return new McpException(ErrorKind.INVALID_REQUEST, message);
  }

  /** A request: it carries an id and expects exactly one response. */
  record Request(JsonNode id, String method, JsonNode params) implements JsonRpcMessage {
    public Request {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(params, "params");
    }

    /** Whether this request opens a session. */
    public boolean isInitialize() {
      return "initialize".equals(method);
    }
  }

  /** A notification: no id, no response. */
  record Notification(String method, JsonNode params) implements JsonRpcMessage {
    public Notification {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(params, "params");
    }
  }

  /** The client's answer to a request the server sent; exactly one of result and error is set. */
  record Response(JsonNode id, JsonNode result, JsonNode error) implements JsonRpcMessage {
    public Response {
      Objects.requireNonNull(id, "id");
    }
  }

  /** A JSON array of messages; only revision 2025-03-26 allows it. */
  record Batch(List<JsonRpcMessage> messages) implements JsonRpcMessage {
    public Batch {
      messages = List.copyOf(messages);
    }

    /** Whether any element expects a response. */
    public boolean hasRequests() {
      return messages.stream().anyMatch(m -> m instanceof Request || m instanceof Malformed);
    }
  }

  /**
   * Input that is not a valid message; it is answered with an error.
   *
   * @param id the id when one could be read, else null
   * @param error what is wrong
   */
  record Malformed(JsonNode id, McpException error) implements JsonRpcMessage {
    public Malformed {
      Objects.requireNonNull(error, "error");
    }

    /** The error response to send back. */
    public ObjectNode response() {
      return ErrorMapper.toResponse(id, error);
    }
  }
}
