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

    /**
     * Checks the token the request presents as a header, counting a wrong one against its client:
     * {@link Attempt#LIMITED} once that client (or that token) sent too many wrong ones.
     */
    Attempt attempt(Request request);

    /** Checks {@code token} (typed into a form) as the request's client presents it. */
    Attempt attempt(Request request, String token);
  }

  /**
   * What a presented token came to.
   *
   * @param result accepted, absent, refused (401) or limited (429)
   * @param retryAfterSeconds for {@link Result#LIMITED}, when to try again; else 0
   */
  record Attempt(Result result, long retryAfterSeconds) {
    /** No token was presented. */
    public static final Attempt ABSENT = new Attempt(Result.ABSENT, 0);

    /** The token is accepted. */
    public static final Attempt ACCEPTED = new Attempt(Result.ACCEPTED, 0);

    /** The token is not accepted. */
    public static final Attempt REFUSED = new Attempt(Result.REFUSED, 0);

    public Attempt {
      if ((result == Result.LIMITED) != (retryAfterSeconds > 0)) {
        throw new IllegalArgumentException("a wait goes with LIMITED and only with it");
      }
    }

    /** Limited for {@code seconds} more. */
    public static Attempt limited(long seconds) {
      return new Attempt(Result.LIMITED, seconds);
    }

    /** The closed set of outcomes. */
    public enum Result {
      ACCEPTED,
      ABSENT,
      REFUSED,
      LIMITED
    }
  }
}
