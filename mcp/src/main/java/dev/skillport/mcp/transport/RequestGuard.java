package dev.skillport.mcp.transport;

import dev.skillport.api.owner.Principal;
import dev.skillport.mcp.transport.HttpRoutes.Attempt;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * Decides whether an HTTP request may reach the server at all: DNS-rebinding protection (Host and
 * Origin must name this machine when it listens on loopback) and the auth token (required when it
 * does not).
 *
 * <p>Every token a client presents, as a header or through the page's login form, passes the {@link
 * AuthLimiter}: a client that sent too many wrong ones is answered 429 without its token being
 * compared (the right one included, or the limit would not slow guessing), until its window ends;
 * the same token from any other client is still accepted.
 */
final class RequestGuard implements HttpRoutes.Credentials {
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

  /** Why a request was refused. */
  enum Verdict {
    ALLOWED,
    FORBIDDEN_HOST,
    FORBIDDEN_ORIGIN,
    UNAUTHORIZED,
    LIMITED
  }

  private final boolean loopbackOnly;
  private final List<byte[]> tokenDigests;
  // The digests from this index on are the admin tokens'.
  private final int firstAdmin;
  private final Set<String> allowedOrigins;
  private final AuthLimiter limiter;
  private final EdgeListener listener;

  /**
   * @param loopbackOnly whether the server listens on a loopback address only
   * @param tokens the accepted auth tokens, none for no authentication
   * @param adminTokens accepted tokens whose callers are operators
   * @param allowedOrigins extra origins (scheme://host[:port], lower case) browsers may call from
   */
  RequestGuard(
      boolean loopbackOnly,
      List<String> tokens,
      List<String> adminTokens,
      Set<String> allowedOrigins) {
    this(
        loopbackOnly,
        tokens,
        adminTokens,
        allowedOrigins,
        new AuthLimiter(System::nanoTime),
        EdgeListener.NONE);
  }

  /** As above, counting wrong tokens in {@code limiter} and telling {@code listener}. */
  RequestGuard(
      boolean loopbackOnly,
      List<String> tokens,
      List<String> adminTokens,
      Set<String> allowedOrigins,
      AuthLimiter limiter,
      EdgeListener listener) {
    this.loopbackOnly = loopbackOnly;
    this.tokenDigests =
        java.util.stream.Stream.concat(tokens.stream(), adminTokens.stream())
            .map(RequestGuard::digest)
            .toList();
    this.firstAdmin = tokens.size();
    this.allowedOrigins = Set.copyOf(allowedOrigins);
    this.limiter = limiter;
    this.listener = listener;
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
    if (tokenDigests.isEmpty()) {
      return Verdict.ALLOWED;
    }
    return switch (attempt(request).result()) {
      case ACCEPTED -> Verdict.ALLOWED;
      case ABSENT, REFUSED -> Verdict.UNAUTHORIZED;
      case LIMITED -> Verdict.LIMITED;
    };
  }

  @Override
  public Attempt attempt(Request request) {
    return attempt(request, presented(request));
  }

  @Override
  public Attempt attempt(Request request, String token) {
    if (token == null) {
      return Attempt.ABSENT;
    }
    InetAddress client = client(request);
    long wait = limiter.clientWait(client);
    if (wait > 0) {
      listener.on(EdgeListener.Event.AUTH_LIMITED);
      return Attempt.limited(wait);
    }
    if (accepts(token)) {
      return Attempt.ACCEPTED;
    }
    long tokenWait = limiter.tokenWait(token);
    limiter.failed(client, token);
    listener.on(EdgeListener.Event.AUTH_FAILED);
    if (tokenWait > 0) {
      listener.on(EdgeListener.Event.AUTH_LIMITED);
      return Attempt.limited(tokenWait);
    }
    return Attempt.REFUSED;
  }

  /**
   * Seconds the request's client should wait before presenting a token again (for {@code
   * Retry-After}); at least 1.
   */
  long retryAfterSeconds(Request request) {
    String token = presented(request);
    long wait = limiter.clientWait(client(request));
    if (token != null) {
      wait = Math.max(wait, limiter.tokenWait(token));
    }
    return Math.max(1, wait);
  }

  /** The address a request came from (the client's, when a trusted proxy forwarded it). */
  static InetAddress client(Request request) {
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress();
    }
    // Not an IP connection (a test's local connector): every such request is one client.
    return InetAddress.getLoopbackAddress();
  }

  @Override
  public boolean required() {
    return !tokenDigests.isEmpty();
  }

  @Override
  public boolean presentedBy(Request request) {
    return matchedToken(request) >= 0;
  }

  @Override
  public boolean accepts(String token) {
    if (token == null) {
      return false;
    }
    // Every token is compared, so the time does not tell which one matched.
    byte[] digest = digest(token);
    boolean found = false;
    for (byte[] accepted : tokenDigests) {
      found |= MessageDigest.isEqual(accepted, digest);
    }
    return found;
  }

  /**
   * The name of the caller accepted token {@code index} stands for: a short, stable name derived
   * from the token (the same on every server configured with that token, and revealing nothing
   * usable about it).
   */
  private String name(int index) {
    byte[] digest = tokenDigests.get(index);
    StringBuilder name = new StringBuilder("token:");
    for (int i = 0; i < 6; i++) {
      name.append(Character.forDigit((digest[i] >> 4) & 0xF, 16))
          .append(Character.forDigit(digest[i] & 0xF, 16));
    }
    return name.toString();
  }

  /**
   * Who the request acts for: its token's principal, an operator when the token is an admin token;
   * the local caller when the server takes no tokens.
   */
  @Override
  public Principal caller(Request request) {
    return identity(matchedToken(request));
  }

  @Override
  public java.util.Optional<Principal> identify(String token) {
    int index = token == null ? -1 : indexOf(token);
    return index < 0 ? java.util.Optional.empty() : java.util.Optional.of(identity(index));
  }

  private Principal identity(int index) {
    return index < 0 ? Principal.LOCAL : new Principal(name(index), index >= firstAdmin);
  }

  /** The token a request presents as {@code X-API-Key} or {@code Authorization: Bearer}. */
  private static String presented(Request request) {
    String presented = request.getHeaders().get("X-API-Key");
    String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (presented == null
        && authorization != null
        && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      presented = authorization.substring(7).trim();
    }
    return presented;
  }

  /** Which accepted token the request presents, or -1. */
  private int matchedToken(Request request) {
    String presented = presented(request);
    return presented == null ? -1 : indexOf(presented);
  }

  /** Which accepted token {@code presented} is, or -1. */
  private int indexOf(String presented) {
    // Comparing digests keeps the comparison constant-time in the token's length too; every token
    // is compared, so the time does not tell which one matched.
    byte[] digest = digest(presented);
    int found = -1;
    for (int i = 0; i < tokenDigests.size(); i++) {
      if (MessageDigest.isEqual(tokenDigests.get(i), digest)) {
        found = i;
      }
    }
    return found;
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
      if (!rest.isEmpty() && !(rest.charAt(0) == ':' && isPort(rest, 1))) {
        return false;
      }
      host = host.substring(0, end + 1);
    } else {
      int colon = host.indexOf(':');
      if (colon >= 0) {
        if (!isPort(host, colon + 1)) {
          return false;
        }
        host = host.substring(0, colon);
      }
    }
    return LOOPBACK_NAMES.contains(host);
  }

  /**
   * Whether {@code text} from {@code start} on is one to five ASCII digits (checked on every
   * request, so without a regular expression).
   */
  private static boolean isPort(String text, int start) {
    int digits = text.length() - start;
    if (digits < 1 || digits > 5) {
      return false;
    }
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
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
