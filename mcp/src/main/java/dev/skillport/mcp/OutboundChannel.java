package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Where a transport delivers server-to-client messages: a session's channel (stdout, or the HTTP
 * GET stream) or one request's channel (the POST's event stream). Implementations are thread-safe
 * and never block the caller for long.
 */
@FunctionalInterface
public interface OutboundChannel {
  /**
   * Sends a complete JSON-RPC notification or request; drops it (with a debug log) if it cannot.
   */
  void send(JsonNode message);
}
