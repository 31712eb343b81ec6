package dev.skillport.mcp.transport;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.skillport.mcp.McpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over Streamable HTTP on Jetty 12 core, plus {@code GET /healthz}, {@code GET /readyz} and the
 * application's own {@link HttpRoutes} (a page for people, metrics) on the same port.
 *
 * <p>At the MCP path: {@code POST} carries client messages (a request is answered with JSON, or
 * with an event stream once the call sends progress, logs or requests first, or runs past a
 * keep-alive interval; notifications and responses get 202); {@code GET} opens the session's event
 * stream for server-initiated messages (406 unless the client accepts {@code text/event-stream});
 * {@code DELETE} ends the session. Session messages sent while no GET stream is open wait in a
 * small per-session buffer (oldest dropped first) and are delivered when one opens.
 *
 * <p>Every event carries an id unique within its session. The newest events of each session are
 * kept (bounded), so a client that reconnects with {@code GET} and {@code Last-Event-ID} receives
 * what it missed on that stream; for a POST's event stream closed before its result (see {@link
 * RequestStreams}), the new stream also carries the rest of the call and ends with its result.
 *
 * <p>The modern era (2026-07-28, chosen per request by its {@code MCP-Protocol-Version} header or
 * its {@code _meta}) is served on the same path without sessions: a request's {@code _meta} is
 * checked, then the headers that mirror its body ({@code MCP-Protocol-Version}, {@code Mcp-Method},
 * {@code Mcp-Name}); a refused request gets 400 (404 for an unknown method) with a JSON-RPC error.
 * Its event streams carry no ids and are not resumable, and a client that closes its response
 * stream cancels the call. There is no GET stream in this era (405).
 *
 * <p>Refusals: foreign Host or Origin → 403 (Host is checked when listening on loopback); missing
 * or wrong token → 401 (a token is required to listen on any other address); no session header on a
 * non-initialize request → 400; unknown, deleted or expired session → 404; unsupported {@code
 * MCP-Protocol-Version} → 400; body over the limit → 413; no room for a session (none idle to end)
 * → 503; too many GET streams on one session → 429; a POST not of {@code application/json} → 415,
 * or not accepting both JSON and an event stream → 406. What Jetty refuses itself (headers over 8
 * KiB → 431, an unparsable request → 400) is answered with a JSON-RPC error too, never an HTML
 * page.
 *
 * <p>Slow and idle clients: a connection must complete a request's headers within {@link
 * Builder#headerTimeout} when no request of it is in progress (time its bytes wait for a busy
 * server to read them does not count), and open connections are capped below the descriptor limit,
 * the longest idle one making room for a newcomer ({@link ConnectionGuard}).
 *
 * <p>Overload is answered, never dropped: past {@link Builder#maxRequests} MCP requests at once a
 * request waits for room, and past the number allowed to wait, or the time, it gets 503 with {@code
 * Retry-After} ({@link Overload}); so does a request on a connection opened past the cap when no
 * idle one could make room.
 *
 * <p>Wrong tokens are limited per client and per token ({@link AuthLimiter}): 429 with {@code
 * Retry-After}. Behind a proxy named by {@link Builder#trustedProxy}, the client and whether it
 * used TLS come from the proxy's forwarded headers ({@link TrustedProxies}).
 */
public final class StreamableHttpTransport implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StreamableHttpTransport.class);

  private final McpServer mcp;
  private final Settings settings;
  private final Supplier<Readiness> readiness;
  private final HttpRoutes routes;
  private final List<String> adminTokens;
  private final AtomicBoolean readyFlag = new AtomicBoolean();
  private Server jetty;
  private ServerConnector connector;
  private McpHttpHandler handler;
  private ConnectionGuard connections;
  private ScheduledExecutorService sweeper;

  /** The most connections open at once by default, if the descriptor limit allows as many. */
  static final int DEFAULT_MAX_CONNECTIONS = 10_000;

  /** The most MCP requests handled at once by default. */
  public static final int DEFAULT_MAX_REQUESTS = 256;

  /** How often connections are checked against the header timeout. */
  private static final long CONNECTION_SWEEP_MILLIS = 250;

  /** Connections waiting in the kernel to be accepted (the system may allow fewer). */
  static final int ACCEPT_QUEUE = 4096;

  /** MCP requests beyond {@link Builder#maxRequests} that may wait for room, and for how long. */
  static final int MAX_WAITING_REQUESTS = 1024;

  static final Duration MAX_REQUEST_WAIT = Duration.ofSeconds(5);

  private final List<AddressBlock> trustedProxies;
  private final EdgeListener edgeListener;
  private final int maxRequests;

  private StreamableHttpTransport(Builder builder) {
    this.mcp = builder.server;
    this.settings =
        new Settings(
            builder.host,
            builder.port,
            builder.path,
            List.copyOf(builder.authTokens),
            Set.copyOf(builder.allowedOrigins),
            builder.maxBodyBytes,
            builder.sessionIdleTimeout,
            builder.maxSessions,
            builder.maxStreamsPerSession,
            builder.maxBufferedNotifications,
            builder.maxQueuedEvents,
            builder.maxReplayedEvents,
            builder.keepAliveInterval,
            builder.connectionIdleTimeout,
            builder.clock,
            builder.headerTimeout,
            builder.maxConnections > 0
                ? builder.maxConnections
                : ConnectionGuard.defaultCap(DEFAULT_MAX_CONNECTIONS));
    this.readiness =
        builder.readiness != null ? builder.readiness : () -> Readiness.of(readyFlag.get());
    this.routes = builder.routes;
    this.adminTokens = List.copyOf(builder.adminTokens);
    this.trustedProxies = List.copyOf(builder.trustedProxies);
    this.edgeListener = builder.edgeListener;
    this.maxRequests = builder.maxRequests;
  }

  /** Starts describing a transport for {@code server}; defaults: 127.0.0.1:8765, path /mcp. */
  public static Builder builder(McpServer server) {
    return new Builder(server);
  }

  /**
   * Binds and starts serving.
   *
   * @throws IllegalStateException when asked to listen on a non-loopback address without a token
   * @throws Exception when the port cannot be bound
   */
  public synchronized void start() throws Exception {
    if (jetty != null) {
      throw new IllegalStateException("already started");
    }
    boolean loopback = isLoopback(settings.host());
    if (!loopback && settings.authTokens().isEmpty() && adminTokens.isEmpty()) {
      throw new IllegalStateException(
          "Listening on " + settings.host() + " (not loopback) requires an auth token");
    }
    QueuedThreadPool threads = new QueuedThreadPool(64, 4);
    threads.setName("mcp-http");
    threads.setDaemon(true);
    jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    // Jetty's per-connection header cache otherwise matches values case-insensitively, so a token
    // differing only in case from an earlier one on the same connection would read as that one.
    http.setHeaderCacheCaseSensitive(true);
    if (!trustedProxies.isEmpty()) {
      http.addCustomizer(new TrustedProxies(trustedProxies));
    }
    connector = new TimedConnector(jetty, new HttpConnectionFactory(http));
    connector.setHost(settings.host());
    connector.setPort(settings.port());
    connector.setIdleTimeout(settings.connectionIdleTimeout().toMillis());
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    connections =
        new ConnectionGuard(
            settings.maxConnections(), settings.headerTimeout(), Overload.answer(edgeListener));
    connector.addEventListener(connections);
    jetty.addConnector(connector);
    // Counted as they are accepted, before the guard hears of them: descriptors never run out.
    jetty.addBean(
        new NetworkConnectionLimit(
            settings.maxConnections() + ConnectionGuard.OVERFLOW, connector));
    jetty.setErrorHandler(new JsonErrorHandler());
    handler =
        new McpHttpHandler(
            mcp,
            settings,
            new RequestGuard(
                loopback,
                settings.authTokens(),
                adminTokens,
                settings.allowedOrigins(),
                new AuthLimiter(Ticker.systemTicker()),
                edgeListener),
            readiness,
            routes);
    jetty.setHandler(
        connections.tracking(
            Overload.limit(
                handler, maxRequests, MAX_WAITING_REQUESTS, MAX_REQUEST_WAIT, edgeListener)));
    jetty.setStopTimeout(2000);
    try {
      jetty.start();
    } catch (Exception e) {
      // Not started (a port in use): leave nothing half-open for close() to trip over.
      try {
        jetty.stop();
      } catch (Exception stopFailure) {
        e.addSuppressed(stopFailure);
      }
      jetty = null;
      connector = null;
      handler = null;
      connections = null;
      throw e;
    }
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "mcp-http-sweeper");
              thread.setDaemon(true);
              return thread;
            });
    long period = settings.keepAliveInterval().toMillis();
    sweeper.scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
    ConnectionGuard guard = connections;
    sweeper.scheduleWithFixedDelay(
        guard::sweep, CONNECTION_SWEEP_MILLIS, CONNECTION_SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    LOG.info("MCP endpoint listening on {}", uri());
  }

  /**
   * The canonical form of an address or CIDR block as {@link Builder#trustedProxy} takes it (for
   * example {@code 10.0.0.0/8}).
   *
   * @throws IllegalArgumentException when {@code cidr} is not one, saying why
   */
  public static String addressBlock(String cidr) {
    return AddressBlock.parse(cidr).canonical();
  }

  /** The bound port (useful with port 0). */
  public int port() {
    ServerConnector bound = connector;
    if (bound == null) {
      throw new IllegalStateException("not started");
    }
    return bound.getLocalPort();
  }

  /** The MCP endpoint's URI. */
  public URI uri() {
    String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
    return URI.create("http://" + host + ":" + port() + settings.path());
  }

  /** Marks the server ready (or not) for {@code /readyz}, unless a readiness supplier was given. */
  public void setReady(boolean ready) {
    readyFlag.set(ready);
  }

  /** Number of open connections. */
  public int connectionCount() {
    ConnectionGuard current = connections;
    return current == null ? 0 : current.openConnections();
  }

  /** The cap on open connections in force. */
  public int maxConnections() {
    return settings.maxConnections();
  }

  /** Number of open HTTP sessions. */
  public int sessionCount() {
    McpHttpHandler current = handler;
    return current == null ? 0 : current.sessionCount();
  }

  /** Runs the idle-session sweep and keep-alives now (normally on a timer). */
  void sweep() {
    handler.sweep();
  }

  McpHttpHandler handler() {
    return handler;
  }

  private void sweepSafely() {
    try {
      handler.sweep();
    } catch (RuntimeException e) {
      LOG.warn("Session sweep failed", e);
    }
  }

  /** Ends every session (closing its streams) and stops the server. */
  @Override
  public synchronized void close() {
    if (jetty == null) {
      return;
    }
    sweeper.shutdownNow();
    handler.closeAll();
    try {
      jetty.stop();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("MCP endpoint did not stop cleanly", e);
    } finally {
      jetty = null;
    }
    LOG.info("MCP endpoint stopped");
  }

  /** A connector whose end points tell the {@link ConnectionGuard} about unread bytes. */
  private static final class TimedConnector extends ServerConnector {
    TimedConnector(Server server, HttpConnectionFactory factory) {
      super(server, 1, 1, factory);
    }

    @Override
    protected SocketChannelEndPoint newEndPoint(
        SocketChannel channel, ManagedSelector selector, SelectionKey key) throws IOException {
      SocketChannelEndPoint endPoint =
          new ConnectionGuard.TimedEndPoint(channel, selector, key, getScheduler());
      endPoint.setIdleTimeout(getIdleTimeout());
      return endPoint;
    }
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Unknown host: " + host, e);
    }
  }

  /** Settings the handler reads. */
  record Settings(
      String host,
      int port,
      String path,
      List<String> authTokens,
      Set<String> allowedOrigins,
      int maxBodyBytes,
      Duration sessionIdleTimeout,
      int maxSessions,
      int maxStreamsPerSession,
      int maxBufferedNotifications,
      int maxQueuedEvents,
      int maxReplayedEvents,
      Duration keepAliveInterval,
      Duration connectionIdleTimeout,
      Clock clock,
      Duration headerTimeout,
      int maxConnections) {}

  /** Describes a transport; every limit has a default. */
  public static final class Builder {
    private final McpServer server;
    private String host = "127.0.0.1";
    private int port = 8765;
    private String path = "/mcp";
    private final List<String> authTokens = new ArrayList<>();
    private final List<String> adminTokens = new ArrayList<>();
    private final Set<String> allowedOrigins = new HashSet<>();
    private int maxBodyBytes = 4 * 1024 * 1024;
    private Duration sessionIdleTimeout = Duration.ofHours(1);
    private int maxSessions = 1000;
    private int maxStreamsPerSession = 4;
    private int maxBufferedNotifications = 64;
    private int maxQueuedEvents = 1024;
    private int maxReplayedEvents = 256;
    private Duration keepAliveInterval = Duration.ofSeconds(15);
    private Duration connectionIdleTimeout = Duration.ofMinutes(5);
    private Clock clock = Clock.systemUTC();
    private Supplier<Readiness> readiness;
    private Duration headerTimeout = Duration.ofSeconds(10);
    private int maxConnections;
    private HttpRoutes routes;
    private final List<AddressBlock> trustedProxies = new ArrayList<>();
    private EdgeListener edgeListener = EdgeListener.NONE;
    private int maxRequests = DEFAULT_MAX_REQUESTS;

    private Builder(McpServer server) {
      this.server = Objects.requireNonNull(server, "server");
    }

    /** The address to bind (default 127.0.0.1); a non-loopback address needs {@link #authToken}. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The port (default 8765); 0 picks a free one, read it back with {@link #port()}. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    /** The MCP endpoint path (default /mcp). */
    public Builder path(String path) {
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("path must start with /");
      }
      this.path = path;
      return this;
    }

    /**
     * Requires this token as {@code Authorization: Bearer} or {@code X-API-Key} on the MCP path.
     */
    public Builder authToken(String token) {
      if (token != null && token.isBlank()) {
        throw new IllegalArgumentException("token must not be blank");
      }
      authTokens.clear();
      if (token != null) {
        authTokens.add(token);
      }
      return this;
    }

    /**
     * Accepts any of {@code tokens}, each naming its own caller: state the server keeps for a
     * caller (tasks, for example) is reachable with that caller's token only.
     */
    public Builder authTokens(List<String> tokens) {
      authTokens.clear();
      for (String token : tokens) {
        if (token == null || token.isBlank()) {
          throw new IllegalArgumentException("token must not be blank");
        }
        authTokens.add(token);
      }
      return this;
    }

    /**
     * Also accepts each of {@code tokens}, naming an operator: a caller that owns its own work like
     * any other, and sees every caller's calls in the diagnostics views.
     */
    public Builder adminTokens(List<String> tokens) {
      adminTokens.clear();
      for (String token : tokens) {
        if (token == null || token.isBlank()) {
          throw new IllegalArgumentException("token must not be blank");
        }
        adminTokens.add(token);
      }
      return this;
    }

    /** Allows browser calls from this origin (for example {@code https://app.example.com}). */
    public Builder allowOrigin(String origin) {
      allowedOrigins.add(origin.trim().toLowerCase(Locale.ROOT));
      return this;
    }

    /** Largest accepted request body (default 4 MiB); larger ones get 413. */
    public Builder maxBodyBytes(int bytes) {
      this.maxBodyBytes = positive(bytes, "maxBodyBytes");
      return this;
    }

    /** How long a session may go without requests (and without a GET stream) before it ends. */
    public Builder sessionIdleTimeout(Duration timeout) {
      this.sessionIdleTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** Most sessions open at once (default 1000); beyond it initialize gets 503. */
    public Builder maxSessions(int max) {
      this.maxSessions = positive(max, "maxSessions");
      return this;
    }

    /** Most GET streams one session may hold open (default 4); beyond it GET gets 429. */
    public Builder maxStreamsPerSession(int max) {
      this.maxStreamsPerSession = positive(max, "maxStreamsPerSession");
      return this;
    }

    /** Session messages kept while no GET stream is open (default 64; 0 drops them). */
    public Builder maxBufferedNotifications(int max) {
      if (max < 0) {
        throw new IllegalArgumentException("maxBufferedNotifications must not be negative");
      }
      this.maxBufferedNotifications = max;
      return this;
    }

    /** Events queued for a slow client before its stream is closed (default 1024). */
    public Builder maxQueuedEvents(int max) {
      this.maxQueuedEvents = positive(max, "maxQueuedEvents");
      return this;
    }

    /**
     * Events kept per session for clients that reconnect with {@code Last-Event-ID} (default 256; 0
     * turns replay off). The oldest are dropped first.
     */
    public Builder maxReplayedEvents(int max) {
      if (max < 0) {
        throw new IllegalArgumentException("maxReplayedEvents must not be negative");
      }
      this.maxReplayedEvents = max;
      return this;
    }

    /** How often idle sessions are swept and streams get keep-alive comments (default 15 s). */
    public Builder keepAliveInterval(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("keepAliveInterval must be positive");
      }
      this.keepAliveInterval = interval;
      return this;
    }

    /** How long a connection may stay silent before Jetty closes it (default 5 min). */
    public Builder connectionIdleTimeout(Duration timeout) {
      this.connectionIdleTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /**
     * How long a connection with no request in progress may take to complete a request's headers,
     * from opening or from its previous request (default 10 s); then it is closed. Unlike the idle
     * timeout, a client trickling bytes does not restart it.
     */
    public Builder headerTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("headerTimeout must be positive");
      }
      this.headerTimeout = timeout;
      return this;
    }

    /**
     * Most connections open at once (default: 10,000, or fewer to stay 512 below the process's
     * file-descriptor limit). Past it, the connection idle longest is closed to make room.
     */
    public Builder maxConnections(int max) {
      this.maxConnections = positive(max, "maxConnections");
      return this;
    }

    /**
     * Most MCP requests ({@code POST}) handled at once (default {@value #DEFAULT_MAX_REQUESTS}, a
     * long tool call counting until it ends); past it up to {@value #MAX_WAITING_REQUESTS} more
     * wait for room for up to 5 s, and the rest get 503 with {@code Retry-After}.
     */
    public Builder maxRequests(int max) {
      this.maxRequests = positive(max, "maxRequests");
      return this;
    }

    /**
     * Trusts the proxies in {@code cidr} (an IPv4 or IPv6 address or CIDR block, such as {@code
     * 10.0.0.0/8}; repeatable): their {@code Forwarded} or {@code X-Forwarded-For} and {@code
     * X-Forwarded-Proto} headers name the client and whether it used TLS. Such headers from any
     * other peer are ignored.
     *
     * @throws IllegalArgumentException when {@code cidr} is not an address or block, saying why
     */
    public Builder trustedProxy(String cidr) {
      trustedProxies.add(AddressBlock.parse(cidr));
      return this;
    }

    /** Hears wrong and limited tokens and requests turned away for overload (for metrics). */
    public Builder edgeListener(EdgeListener listener) {
      this.edgeListener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The clock for session expiry. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Decides {@code /readyz} (200 when true, else 503); without it {@link #setReady(boolean)}
     * decides.
     */
    public Builder readiness(BooleanSupplier readiness) {
      Objects.requireNonNull(readiness, "readiness");
      this.readiness = () -> Readiness.of(readiness.getAsBoolean());
      return this;
    }

    /**
     * Decides {@code /readyz} with the reason when not ready (the body names it); replaces {@link
     * #readiness(BooleanSupplier)}.
     */
    public Builder readinessReport(Supplier<Readiness> readiness) {
      this.readiness = Objects.requireNonNull(readiness, "readiness");
      return this;
    }

    /**
     * Serves the application's own paths through {@code routes}; every other path that is not the
     * MCP endpoint or a probe gets 404.
     */
    public Builder routes(HttpRoutes routes) {
      this.routes = Objects.requireNonNull(routes, "routes");
      return this;
    }

    /** Builds the transport; call {@link #start()} to serve. */
    public StreamableHttpTransport build() {
      return new StreamableHttpTransport(this);
    }

    private static int positive(int value, String name) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " must be positive");
      }
      return value;
    }
  }
}
