package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;

/**
 * One modern-era request in flight: its response to come, and the transport's way to cancel it (the
 * client closed its response stream, or sent {@code notifications/cancelled} on stdio).
 */
public final class ModernCall {
  private final RequestContext ctx;
  private final CompletableFuture<JsonNode> response;

  ModernCall(RequestContext ctx) {
    this(ctx, ctx.response());
  }

  ModernCall(RequestContext ctx, CompletableFuture<JsonNode> response) {
    this.ctx = ctx;
    this.response = response;
  }

  /** A call answered before it started (its request was refused). */
  static ModernCall answered(JsonNode response) {
    return new ModernCall(null, CompletableFuture.completedFuture(response));
  }

  /** Completes with the JSON-RPC response, or with null when the call was cancelled. */
  public CompletableFuture<JsonNode> response() {
    return response;
  }

  /** The request id, or null for a call refused before it started. */
  public JsonNode requestId() {
    return ctx == null ? null : ctx.requestId();
  }

  /** Cancels the call: its hooks run (a script is killed) and no response is sent. */
  public void cancel(String reason) {
    if (ctx != null) {
      ctx.cancel(reason);
    }
  }
}
