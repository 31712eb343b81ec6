package dev.skillport.mcp.transport;

/**
 * Hears what the HTTP edge refuses before a request reaches the server: wrong tokens, clients
 * limited for sending too many of them, and requests turned away while the server is full. Called
 * on the request's thread; it must return quickly.
 */
@FunctionalInterface
public interface EdgeListener {
  /** A listener that hears nothing. */
  EdgeListener NONE = event -> {};

  /** One refusal. */
  void on(Event event);

  /** What was refused. */
  enum Event {
    /** A presented token (header or login form) was not accepted: 401. */
    AUTH_FAILED,
    /** A token was not checked, or was wrong, while its client or token was limited: 429. */
    AUTH_LIMITED,
    /** A request came while the server was at its request or connection limit: 503. */
    OVERLOADED
  }
}
