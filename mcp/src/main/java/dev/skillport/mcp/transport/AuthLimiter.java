package dev.skillport.mcp.transport;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts wrong tokens per client and per token, each in a window that opens with its first failure:
 * past {@link #MAX_FAILURES} in {@link #WINDOW}, the client (or the token) is limited until the
 * window ends. Never global: one client's failures limit that client, and one token's failures
 * limit that token's wrong presentations.
 *
 * <p>A client is its address, or for IPv6 its /64 (one host usually holds a whole /64 and could
 * otherwise rotate through it). A token is its first {@value #PREFIX_CHARS} characters, kept as a
 * digest, so that many addresses presenting one stale or guessed token are told to back off too.
 * Both tables are bounded caches: a flood of addresses evicts old counters, never grows the heap.
 */
final class AuthLimiter {
  /** Wrong tokens one client (or one token) may present in a window before it is limited. */
  static final int MAX_FAILURES = 20;

  /** How long a window lasts from its first failure. */
  static final Duration WINDOW = Duration.ofMinutes(1);

  /** Characters of a presented token that name it for the per-token count. */
  static final int PREFIX_CHARS = 6;

  private static final int MAX_KEYS = 100_000;

  private final Ticker ticker;
  private final Cache<String, Window> clients;
  private final Cache<String, Window> tokens;

  /** Failures of one key since {@code start} (ticker nanoseconds). */
  private record Window(long start, AtomicInteger failures) {}

  AuthLimiter(Ticker ticker) {
    this.ticker = ticker;
    this.clients = table(ticker);
    this.tokens = table(ticker);
  }

  private static Cache<String, Window> table(Ticker ticker) {
    return Caffeine.newBuilder()
        .ticker(ticker)
        .expireAfterWrite(WINDOW.toNanos(), TimeUnit.NANOSECONDS)
        .maximumSize(MAX_KEYS)
        .build();
  }

  /** Seconds until {@code client} may present tokens again; 0 when it may now. */
  long clientWait(InetAddress client) {
    return wait(clients, clientKey(client));
  }

  /** Seconds until wrong presentations of {@code token} are answered 401 again; 0 when they are. */
  long tokenWait(String token) {
    return wait(tokens, tokenKey(token));
  }

  /** Counts one wrong token from {@code client}. */
  void failed(InetAddress client, String token) {
    count(clients, clientKey(client));
    count(tokens, tokenKey(token));
  }

  private void count(Cache<String, Window> table, String key) {
    table
        .get(key, k -> new Window(ticker.read(), new AtomicInteger()))
        .failures()
        .incrementAndGet();
  }

  private long wait(Cache<String, Window> table, String key) {
    Window window = table.getIfPresent(key);
    if (window == null || window.failures().get() < MAX_FAILURES) {
      return 0;
    }
    long left = window.start() + WINDOW.toNanos() - ticker.read();
    return left <= 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toSeconds(left + 999_999_999));
  }

  /** An IPv4 address as it is; an IPv6 address as its /64. */
  static String clientKey(InetAddress client) {
    byte[] bytes = client.getAddress();
    if (client instanceof Inet6Address) {
      return "6:" + HexFormat.of().formatHex(bytes, 0, 8);
    }
    return "4:" + client.getHostAddress();
  }

  private static String tokenKey(String token) {
    String prefix = token.length() > PREFIX_CHARS ? token.substring(0, PREFIX_CHARS) : token;
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(prefix.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
