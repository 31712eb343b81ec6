package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reacts to a client notification (for example {@code notifications/roots/list_changed}). It runs
 * on the transport thread, so it must be quick; notifications get no response.
 */
@FunctionalInterface
public interface NotificationHandler {
  /** Handles the notification's {@code params} (an empty object when absent). */
  void handle(McpSession session, JsonNode params);
}
