package dev.skillport.mcp;

/**
 * The two families of protocol revisions a server speaks at once on one endpoint. Their names are
 * the specification's ("Versioning and Compatibility").
 */
public enum Era {
  /**
   * 2025-11-25 and older: an {@code initialize} handshake opens a session; capabilities, version
   * and log level belong to the session; the server may send requests to the client.
   */
  LEGACY,
  /**
   * 2026-07-28 and later: stateless; every request carries its version, client capabilities and
   * client info in {@code _meta}, and nothing is kept between requests.
   */
  MODERN
}
