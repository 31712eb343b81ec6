package dev.skillport.mcp.transport;

import dev.skillport.api.owner.Principal;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Paths of the application's own on the MCP server's port (a page for people, metrics), served
 * beside the MCP endpoint and the health probes. The transport has checked Host and Origin
 * (DNS-rebinding protection) before a route sees a request; whether a path needs the token is the
 * route's to decide, through the {@link Credentials} it is given, so it checks exactly the tokens
 * the MCP endpoint accepts.
 */
@FunctionalInterface
public interface HttpRoutes {
  /**
   * Serves the request and completes {@code callback}, or returns false, leaving both untouched,
   * for a path it does not serve (the transport then answers 404). A runtime exception thrown
   * before anything was written is answered with 500.
   */
  boolean handle(Request request, Response response, Callback callback, Credentials credentials);

  /** The MCP endpoint's token check, for routes that require the same authentication. */
  interface Credentials {
    /** Whether the server takes a token at all; without one every request is let in. */
    boolean required();

    /**
     * Whether the request presents an accepted token as {@code Authorization: Bearer} or {@code
     * X-API-Key}.
     */
    boolean presentedBy(Request request);

    /** Whether {@code token} is an accepted token (compared in constant time). */
    boolean accepts(String token);

    /**
     * Who a request that presents a token acts for; the local caller when it presents none or the
     * server takes no tokens.
     */
    Principal caller(Request request);

    /** Who {@code token} names, if it is an accepted token (a login form's, for example). */
    java.util.Optional<Principal> identify(String token);
  }
}
