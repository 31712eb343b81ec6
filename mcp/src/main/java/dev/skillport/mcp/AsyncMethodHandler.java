package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;

/**
 * Answers one JSON-RPC method without holding a thread for its duration. It is called on the
 * transport thread and must return at once; the response is sent when the future completes.
 * Completing it with an {@link McpException} sends that error.
 */
@FunctionalInterface
public interface AsyncMethodHandler {
  /**
   * Starts handling a request.
   *
   * @param ctx the request's context
   * @param params the request's {@code params}, an empty object when the client sent none
   * @return the future {@code result}
   */
  CompletableFuture<JsonNode> handle(RequestContext ctx, JsonNode params);
}
