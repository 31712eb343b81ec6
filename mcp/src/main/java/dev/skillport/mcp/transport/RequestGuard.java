package dev.skillport.mcp.transport;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * Decides whether an HTTP request may reach the server at all: DNS-rebinding protection (Host and
 * Origin must name this machine when it listens on loopback) and the auth token (required when it
 * does not).
 */
final class RequestGuard {
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

  /** Why a request was refused. */
  enum Verdict {
    ALLOWED,
    FORBIDDEN_HOST,
    FORBIDDEN_ORIGIN,
    UNAUTHORIZED
  }

  private final boolean loopbackOnly;
  private final byte[] tokenDigest;
  private final Set<String> allowedOrigins;

  /**
   * @param loopbackOnly whether the server listens on a loopback address only
   * @param token the auth token, or null for none
   * @param allowedOrigins extra origins (scheme://host[:port], lower case) browsers may call from
   */
  RequestGuard(boolean loopbackOnly, String token, Set<String> allowedOrigins) {
    this.loopbackOnly = loopbackOnly;
    this.tokenDigest = token == null ? null : digest(token);
    this.allowedOrigins = Set.copyOf(allowedOrigins);
  }

  /** Checks Host and Origin only (every path). */
  Verdict checkOrigin(Request request) {
    if (loopbackOnly && !isLoopbackHost(request.getHeaders().get(HttpHeader.HOST))) {
      return Verdict.FORBIDDEN_HOST;
    }
    String origin = request.getHeaders().get(HttpHeader.ORIGIN);
    if (origin != null && !isAllowedOrigin(origin)) {
      return Verdict.FORBIDDEN_ORIGIN;
    }
    return Verdict.ALLOWED;
  }

  /** Checks Host, Origin and the token (the MCP endpoint). */
  Verdict check(Request request) {
    Verdict origin = checkOrigin(request);
    if (origin != Verdict.ALLOWED) {
      return origin;
    }
    if (tokenDigest != null && !hasToken(request)) {
      return Verdict.UNAUTHORIZED;
    }
    return Verdict.ALLOWED;
  }

  private boolean hasToken(Request request) {
    String presented = request.getHeaders().get("X-API-Key");
    String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (presented == null
        && authorization != null
        && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      presented = authorization.substring(7).trim();
    }
    // Comparing digests keeps the comparison constant-time in the token's length too.
    return presented != null && MessageDigest.isEqual(tokenDigest, digest(presented));
  }

  static boolean isLoopbackHost(String hostHeader) {
    if (hostHeader == null || hostHeader.isBlank()) {
      return false;
    }
    String host = hostHeader.trim().toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      if (end < 0) {
        return false;
      }
      String rest = host.substring(end + 1);
      if (!rest.isEmpty() && !rest.matches(":\\d{1,5}")) {
        return false;
      }
      host = host.substring(0, end + 1);
    } else {
      int colon = host.indexOf(':');
      if (colon >= 0) {
        if (!host.substring(colon + 1).matches("\\d{1,5}")) {
          return false;
        }
        host = host.substring(0, colon);
      }
    }
    return LOOPBACK_NAMES.contains(host);
  }

  private boolean isAllowedOrigin(String origin) {
    String normalized = origin.trim().toLowerCase(Locale.ROOT);
    if (allowedOrigins.contains(normalized)) {
      return true;
    }
    try {
      URI uri = new URI(normalized);
      String scheme = uri.getScheme();
      if (!"http".equals(scheme) && !"https".equals(scheme)) {
        return false;
      }
      String authority = uri.getRawAuthority();
      return authority != null && !authority.contains("@") && isLoopbackHost(authority);
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
