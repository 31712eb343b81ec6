package dev.skillport.mcp;

/**
 * Learns of every request the server answers, in either era: for counting them (a 2026-07-28 client
 * has no session, so its requests are what there is to count).
 */
@FunctionalInterface
public interface RequestListener {
  /** The method a request names, when the server does not serve it in that request's era. */
  String UNKNOWN_METHOD = "(unknown)";

  /**
   * Called once per request as it arrives, before it is answered; must be quick and must not throw.
   *
   * @param era the era the request was made in
   * @param method the request's method when the server serves it in that era, else {@value
   *     #UNKNOWN_METHOD} (so the values are bounded by what the server serves)
   */
  void requestReceived(Era era, String method);
}
