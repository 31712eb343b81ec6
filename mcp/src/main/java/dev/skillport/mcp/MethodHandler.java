package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Answers one JSON-RPC method. It runs on the server's worker pool, never on a transport thread, so
 * it may block for the duration of the call.
 */
@FunctionalInterface
public interface MethodHandler {
  /**
   * Handles a request.
   *
   * @param ctx the request's context (session, progress, logging, cancellation)
   * @param params the request's {@code params}, an empty object when the client sent none
   * @return the JSON-RPC {@code result}
   * @throws McpException for a protocol error the client should see
   */
  JsonNode handle(RequestContext ctx, JsonNode params) throws McpException;
}
