package dev.skillport.mcp;

/**
 * Learns when sessions begin and end, so the application can create and drop per-session state
 * (kept in {@link McpSession#attributes()}).
 */
public interface SessionListener {
  /** Called once a session's {@code initialize} succeeded, before its response is sent. */
  default void sessionOpened(McpSession session) {}

  /** Called once when an opened session ends (client gone, DELETE, expiry or shutdown). */
  default void sessionClosed(McpSession session) {}
}
