package dev.skillport.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol engine shared by all transports: it opens sessions, negotiates the revision on
 * {@code initialize}, answers {@code ping} and {@code logging/setLevel}, tracks cancellation, and
 * routes every other method to the handler the application registered for it.
 *
 * <p>Lifecycle rules: {@code initialize} and {@code ping} are allowed at any time; an unknown
 * method is {@code METHOD_NOT_FOUND} at any time (so a probe such as {@code server/discover} gets
 * an answer at once); a known method before {@code initialize} is {@code INVALID_REQUEST}. Requests
 * after the {@code initialize} response are served without waiting for {@code
 * notifications/initialized}. A JSON array of messages is processed only on a session negotiated at
 * 2025-03-26, the one revision that allowed batches; any other session gets one {@code
 * INVALID_REQUEST}.
 */
public final class McpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String OPENING = McpServer.class.getName() + ".opening";

  private final ServerInfo info;
  private final Supplier<? extends JsonNode> capabilities;
  private final Map<String, AsyncMethodHandler> handlers;
  private final Map<String, NotificationHandler> notificationHandlers;
  private final List<SessionListener> listeners;
  private final ExecutorService executor;
  private final boolean ownsExecutor;
  private final Clock clock;
  private final SecureRandom random;
  private final ObjectMapper mapper;
  private final CompletableFuture<?> readiness;

  private McpServer(Builder builder) {
    this.info = builder.info;
    this.capabilities = builder.capabilities;
    this.clock = builder.clock;
    this.random = builder.random;
    this.mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    this.ownsExecutor = builder.executor == null;
    this.executor = ownsExecutor ? defaultExecutor(builder.workerThreads) : builder.executor;
    Map<String, AsyncMethodHandler> all = new HashMap<>();
    builder.syncHandlers.forEach((method, handler) -> all.put(method, onWorker(handler)));
    all.putAll(builder.asyncHandlers);
    this.handlers = Map.copyOf(all);
    this.notificationHandlers = Map.copyOf(builder.notificationHandlers);
    this.listeners = new CopyOnWriteArrayList<>(builder.listeners);
    this.readiness = builder.readiness;
  }

  /** Starts a server description with the identity it reports to clients. */
  public static Builder builder(ServerInfo info) {
    return new Builder(info);
  }

  /** The identity reported in {@code initialize}. */
  public ServerInfo info() {
    return info;
  }

  /** Adds a session listener after construction (for components created later than the server). */
  public void addSessionListener(SessionListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Opens a new, uninitialized session whose server-to-client messages go to {@code channel}. Its
   * id is 128 bits from a secure random source.
   */
  public McpSession openSession(OutboundChannel channel) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    StringBuilder id = new StringBuilder(32);
    for (byte b : bytes) {
      id.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return new McpSession(id.toString(), channel, clock);
  }

  /** Ends a session: cancels its calls in flight and tells the listeners if it had been opened. */
  public void closeSession(McpSession session) {
    // A session whose opening still waited for readiness was never announced to the listeners.
    CompletableFuture<?> gate = gate(session);
    boolean wasOpened =
        session.isInitialized() && gate.isDone() && !gate.isCompletedExceptionally();
    if (session.close() && wasOpened) {
      for (SessionListener listener : listeners) {
        try {
          listener.sessionClosed(session);
        } catch (RuntimeException e) {
          LOG.warn("Session listener failed on close of {}", session.id(), e);
        }
      }
    }
  }

  /**
   * Parses raw bytes into a message; invalid JSON becomes a {@code PARSE_ERROR} {@link
   * JsonRpcMessage.Malformed}.
   */
  public JsonRpcMessage parse(byte[] bytes) {
    return parse(bytes, 0, bytes.length);
  }

  /** Parses part of a byte array; see {@link #parse(byte[])}. */
  public JsonRpcMessage parse(byte[] bytes, int offset, int length) {
    JsonNode node;
    try {
      node = mapper.readTree(bytes, offset, length);
    } catch (IOException | RuntimeException e) {
      return new JsonRpcMessage.Malformed(
          null, new McpException(ErrorKind.PARSE_ERROR, "Parse error: invalid JSON"));
    }
    if (node == null || node.isMissingNode()) {
      return new JsonRpcMessage.Malformed(
          null, new McpException(ErrorKind.PARSE_ERROR, "Parse error: empty message"));
    }
    return JsonRpcMessage.of(node);
  }

  /** Serializes a message as compact UTF-8 JSON (never containing a raw newline). */
  public byte[] write(JsonNode message) {
    try {
      return mapper.writeValueAsBytes(message);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A JSON tree could not be serialized", e);
    }
  }

  /**
   * Handles one inbound message on a session.
   *
   * @param session the session it arrived on
   * @param message the classified message
   * @param requestChannel where messages tied to this request go (progress, logs, server requests)
   * @return the response to send (an object, or an array for a batch), or null when there is none:
   *     for notifications and responses, and for requests the client cancelled
   */
  public CompletableFuture<JsonNode> dispatch(
      McpSession session, JsonRpcMessage message, OutboundChannel requestChannel) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(requestChannel, "requestChannel");
    session.touch();
    if (message instanceof JsonRpcMessage.Malformed malformed) {
      return CompletableFuture.completedFuture(malformed.response());
    }
    if (message instanceof JsonRpcMessage.Notification notification) {
      onNotification(session, notification);
      return CompletableFuture.completedFuture(null);
    }
    if (message instanceof JsonRpcMessage.Response response) {
      session.completeServerRequest(response);
      return CompletableFuture.completedFuture(null);
    }
    if (message instanceof JsonRpcMessage.Batch batch) {
      return onBatch(session, batch, requestChannel);
    }
    return onRequest(session, (JsonRpcMessage.Request) message, requestChannel);
  }

  private CompletableFuture<JsonNode> onBatch(
      McpSession session, JsonRpcMessage.Batch batch, OutboundChannel channel) {
    boolean allowed = session.protocolVersion().map(ProtocolVersion::allowsBatches).orElse(false);
    if (!allowed) {
      return CompletableFuture.completedFuture(
          ErrorMapper.toResponse(
              null,
              new McpException(
                  ErrorKind.INVALID_REQUEST,
                  "JSON-RPC batches are only allowed on sessions negotiated at 2025-03-26")));
    }
    List<CompletableFuture<JsonNode>> parts = new ArrayList<>();
    for (JsonRpcMessage item : batch.messages()) {
      if (item instanceof JsonRpcMessage.Request request && request.isInitialize()) {
        parts.add(
            CompletableFuture.completedFuture(
                ErrorMapper.toResponse(
                    request.id(),
                    new McpException(
                        ErrorKind.INVALID_REQUEST, "initialize must not be part of a batch"))));
      } else if (item instanceof JsonRpcMessage.Batch) {
        parts.add(
            CompletableFuture.completedFuture(
                ErrorMapper.toResponse(
                    null, new McpException(ErrorKind.INVALID_REQUEST, "Nested batch"))));
      } else {
        parts.add(dispatch(session, item, channel));
      }
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              ArrayNode responses = NODES.arrayNode();
              parts.forEach(
                  part -> {
                    JsonNode response = part.join();
                    if (response != null) {
                      responses.add(response);
                    }
                  });
              return responses.isEmpty() ? null : responses;
            });
  }

  private void onNotification(McpSession session, JsonRpcMessage.Notification notification) {
    switch (notification.method()) {
      case "notifications/initialized" -> session.markClientReady();
      case "notifications/cancelled" -> {
        JsonNode requestId = notification.params().get("requestId");
        if (requestId != null && (requestId.isTextual() || requestId.isIntegralNumber())) {
          String reason = notification.params().path("reason").asText(null);
          session
              .inFlight(requestId)
              .ifPresentOrElse(
                  ctx -> {
                    LOG.debug("Session {}: request {} cancelled", session.id(), requestId);
                    session.unregister(ctx);
                    ctx.cancel(reason);
                  },
                  () -> LOG.debug("Session {}: cancel for unknown {}", session.id(), requestId));
        }
      }
      default -> {
        NotificationHandler handler = notificationHandlers.get(notification.method());
        if (handler == null) {
          LOG.debug("Session {}: ignoring notification {}", session.id(), notification.method());
          return;
        }
        try {
          handler.handle(session, notification.params());
        } catch (RuntimeException e) {
          LOG.warn("Notification handler for {} failed", notification.method(), e);
        }
      }
    }
  }

  private CompletableFuture<JsonNode> onRequest(
      McpSession session, JsonRpcMessage.Request request, OutboundChannel channel) {
    String method = request.method();
    try {
      switch (method) {
        case "initialize":
          return completed(request, initialize(session, request.params()));
        case "ping":
          return completed(request, NODES.objectNode());
        default:
          break;
      }
      AsyncMethodHandler handler = handlers.get(method);
      if (handler == null && !"logging/setLevel".equals(method)) {
        throw new McpException(ErrorKind.METHOD_NOT_FOUND, "Method not found: " + method);
      }
      if (!session.isInitialized()) {
        throw new McpException(
            ErrorKind.INVALID_REQUEST, "Server not initialized: send initialize first");
      }
      if (handler == null) {
        return completed(request, setLevel(session, request.params()));
      }
      return invoke(session, request, handler, channel);
    } catch (McpException e) {
      return CompletableFuture.completedFuture(ErrorMapper.toResponse(request.id(), e));
    }
  }

  private CompletableFuture<JsonNode> invoke(
      McpSession session,
      JsonRpcMessage.Request request,
      AsyncMethodHandler handler,
      OutboundChannel channel) {
    RequestContext ctx =
        new RequestContext(session, request.id(), request.method(), request.params(), channel);
    session.register(ctx);
    CompletableFuture<JsonNode> result;
    CompletableFuture<?> gate = gate(session);
    if (gate.isDone() && !gate.isCompletedExceptionally()) {
      result = call(handler, ctx, request);
    } else {
      // Requests that arrive while the server is still starting wait for it; initialize and ping
      // never reach this point, so a client completes its handshake at once.
      result =
          gate.handle(
                  (ready, failure) -> {
                    if (failure != null) {
                      return CompletableFuture.<JsonNode>failedFuture(
                          new McpException(
                              ErrorKind.INTERNAL_ERROR,
                              "Server failed to start: " + rootMessage(failure)));
                    }
                    return ctx.cancelled()
                        ? CompletableFuture.<JsonNode>completedFuture(null)
                        : call(handler, ctx, request);
                  })
              .thenCompose(Function.identity());
    }
    result.whenComplete(
        (value, failure) -> {
          session.unregister(ctx);
          ctx.response()
              .complete(
                  failure == null
                      ? success(request.id(), value == null ? NODES.objectNode() : value)
                      : ErrorMapper.toResponse(request.id(), failure));
        });
    return ctx.response();
  }

  private static CompletableFuture<JsonNode> call(
      AsyncMethodHandler handler, RequestContext ctx, JsonRpcMessage.Request request) {
    try {
      CompletableFuture<JsonNode> result = handler.handle(ctx, request.params());
      return result != null
          ? result
          : CompletableFuture.failedFuture(
              new IllegalStateException("Handler of " + request.method() + " returned no future"));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
  }

  private AsyncMethodHandler onWorker(MethodHandler handler) {
    return (ctx, params) -> {
      CompletableFuture<JsonNode> result = new CompletableFuture<>();
      try {
        executor.execute(
            () -> {
              if (ctx.cancelled()) {
                result.complete(null);
                return;
              }
              try {
                result.complete(handler.handle(ctx, params));
              } catch (Throwable t) { // complete even on Errors so the client is never left waiting
                result.completeExceptionally(t);
              }
            });
      } catch (RejectedExecutionException e) {
        result.completeExceptionally(
            new McpException(ErrorKind.INTERNAL_ERROR, "Server busy: too many calls in flight"));
      }
      return result;
    };
  }

  private ObjectNode initialize(McpSession session, JsonNode params) throws McpException {
    if (session.isInitialized()) {
      throw new McpException(ErrorKind.INVALID_REQUEST, "Session is already initialized");
    }
    JsonNode requested = params.get("protocolVersion");
    if (requested == null || !requested.isTextual()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "protocolVersion (a string) is required");
    }
    ProtocolVersion version =
        ProtocolVersion.fromWire(requested.asText()).orElse(ProtocolVersion.LATEST);
    session.initialize(version, params.get("clientInfo"), params.get("capabilities"));
    if (isReady()) {
      openListeners(session);
    } else {
      // The listeners set a session up from what the server is still loading (its catalog), so
      // they run once it is ready; the session's requests wait for this stage, not for readiness.
      session
          .attributes()
          .put(
              OPENING,
              readiness.thenRun(
                  () -> {
                    if (!session.isClosed()) {
                      try {
                        openListeners(session);
                      } catch (McpException e) {
                        throw new IllegalStateException(e.getMessage(), e);
                      }
                    }
                  }));
    }
    ObjectNode result = NODES.objectNode();
    result.put("protocolVersion", version.wire());
    result.set("capabilities", capabilities());
    ObjectNode serverInfo = result.putObject("serverInfo");
    serverInfo.put("name", info.name());
    serverInfo.put("version", info.version());
    info.instructionsText().ifPresent(text -> result.put("instructions", text));
    LOG.debug(
        "Session {} initialized at {} by {}",
        session.id(),
        version.wire(),
        session.clientInfo().path("name").asText("?"));
    return result;
  }

  private void openListeners(McpSession session) throws McpException {
    for (SessionListener listener : listeners) {
      try {
        listener.sessionOpened(session);
      } catch (RuntimeException e) {
        LOG.error("Session listener failed on open of {}", session.id(), e);
        throw new McpException(ErrorKind.INTERNAL_ERROR, "Session could not be opened", null, e);
      }
    }
  }

  private boolean isReady() {
    return readiness.isDone() && !readiness.isCompletedExceptionally();
  }

  /** What a session's requests wait for: its deferred opening, else the server's readiness. */
  private CompletableFuture<?> gate(McpSession session) {
    Object opening = session.attributes().get(OPENING);
    return opening instanceof CompletableFuture<?> future ? future : readiness;
  }

  private ObjectNode capabilities() {
    JsonNode supplied = capabilities.get();
    ObjectNode merged =
        supplied != null && supplied.isObject()
            ? ((ObjectNode) supplied).deepCopy()
            : NODES.objectNode();
    // The core answers logging/setLevel itself, so it always declares the capability.
    if (!merged.has("logging")) {
      merged.putObject("logging");
    }
    return merged;
  }

  private static ObjectNode setLevel(McpSession session, JsonNode params) throws McpException {
    String wire = params.path("level").asText("");
    LogLevel level =
        LogLevel.fromWire(wire)
            .orElseThrow(
                () -> new McpException(ErrorKind.INVALID_PARAMS, "Unknown log level: " + wire));
    session.setLogLevel(level);
    return NODES.objectNode();
  }

  private static CompletableFuture<JsonNode> completed(
      JsonRpcMessage.Request request, JsonNode result) {
    return CompletableFuture.completedFuture(success(request.id(), result));
  }

  private static ObjectNode success(JsonNode id, JsonNode result) {
    ObjectNode response = NODES.objectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id);
    response.set("result", result);
    return response;
  }

  /** Stops the worker pool if the server created it; calls still running are interrupted. */
  @Override
  public void close() {
    if (ownsExecutor) {
      executor.shutdown();
      try {
        if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
          executor.shutdownNow();
        }
      } catch (InterruptedException e) {
        executor.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }

  private static ExecutorService defaultExecutor(int threads) {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory =
        runnable -> {
          Thread thread = new Thread(runnable, "mcp-worker-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1024), factory);
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** Describes a server: required identity first, then handlers and options. */
  public static final class Builder {
    private final ServerInfo info;
    private Supplier<? extends JsonNode> capabilities = JsonNodeFactory.instance::objectNode;
    private final Map<String, MethodHandler> syncHandlers = new HashMap<>();
    private final Map<String, AsyncMethodHandler> asyncHandlers = new HashMap<>();
    private final Map<String, NotificationHandler> notificationHandlers = new HashMap<>();
    private final List<SessionListener> listeners = new ArrayList<>();
    private ExecutorService executor;
    private int workerThreads = 16;
    private Clock clock = Clock.systemUTC();
    private SecureRandom random = new SecureRandom();
    private CompletableFuture<?> readiness = CompletableFuture.completedFuture(null);

    private Builder(ServerInfo info) {
      this.info = Objects.requireNonNull(info, "info");
    }

    /**
     * Supplies the {@code capabilities} object for each {@code initialize} (for example {@code
     * {"tools": {"listChanged": true}}}); {@code logging} is added by the core.
     */
    public Builder capabilities(Supplier<? extends JsonNode> supplier) {
      this.capabilities = Objects.requireNonNull(supplier, "supplier");
      return this;
    }

    /** Registers a blocking handler; it runs on the worker pool. */
    public Builder handler(String method, MethodHandler handler) {
      checkMethod(method);
      syncHandlers.put(method, Objects.requireNonNull(handler, "handler"));
      return this;
    }

    /**
     * Registers a non-blocking handler; it is called on the transport thread and must return at
     * once.
     */
    public Builder asyncHandler(String method, AsyncMethodHandler handler) {
      checkMethod(method);
      asyncHandlers.put(method, Objects.requireNonNull(handler, "handler"));
      return this;
    }

    /** Registers a handler for a client notification. */
    public Builder notificationHandler(String method, NotificationHandler handler) {
      Objects.requireNonNull(method, "method");
      notificationHandlers.put(method, Objects.requireNonNull(handler, "handler"));
      return this;
    }

    /** Adds a listener for session open and close. */
    public Builder sessionListener(SessionListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /** Runs blocking handlers on this executor; the caller owns and stops it. */
    public Builder executor(ExecutorService executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** Size of the server's own worker pool (default 16), used when no executor is given. */
    public Builder workerThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("workerThreads must be at least 1");
      }
      this.workerThreads = threads;
      return this;
    }

    /** The clock for session activity times. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The random source for session ids. */
    public Builder random(SecureRandom random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * A stage the registered handlers wait for, such as the first catalog load, so a transport can
     * accept clients while the server is still starting. {@code initialize}, {@code ping} and
     * {@code logging/setLevel} never wait. When the stage fails, waiting and later requests get an
     * internal error naming the cause.
     */
    public Builder readiness(CompletableFuture<?> readiness) {
      this.readiness = Objects.requireNonNull(readiness, "readiness");
      return this;
    }

    /** Builds the server. */
    public McpServer build() {
      return new McpServer(this);
    }

    private void checkMethod(String method) {
      Objects.requireNonNull(method, "method");
      if (method.equals("initialize")
          || method.equals("ping")
          || method.equals("logging/setLevel")
          || syncHandlers.containsKey(method)
          || asyncHandlers.containsKey(method)) {
        throw new IllegalArgumentException("A handler for " + method + " is already registered");
      }
    }
  }
}
