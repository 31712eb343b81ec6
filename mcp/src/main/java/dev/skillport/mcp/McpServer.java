package dev.skillport.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The protocol engine shared by all transports. It serves both eras of the protocol: legacy
 * sessions (it opens them, negotiates the revision on {@code initialize}, answers {@code ping} and
 * {@code logging/setLevel}, tracks cancellation) and modern stateless requests (it checks their
 * {@code _meta}, answers {@code server/discover} and {@code subscriptions/listen}, and marks every
 * result with its {@code resultType}, the server's identity and, on lists and reads, cache hints).
 * Every other method goes to the handler the application registered for it, in the eras it was
 * registered for.
 *
 * <p>Lifecycle rules: {@code initialize} and {@code ping} are allowed at any time; an unknown
 * method is {@code METHOD_NOT_FOUND} at any time (so a probe such as {@code server/discover} gets
 * an answer at once); a known method before {@code initialize} is {@code INVALID_REQUEST}. Requests
 * after the {@code initialize} response are served without waiting for {@code
 * notifications/initialized}. A JSON array of messages is processed only on a session negotiated at
 * 2025-03-26, the one revision that allowed batches; any other session gets one {@code
 * INVALID_REQUEST}.
 *
 * <p>Methods the modern era removed ({@code initialize}, {@code ping}, {@code logging/setLevel},
 * {@code resources/subscribe}, {@code resources/unsubscribe}) are {@code METHOD_NOT_FOUND} there;
 * {@code server/discover} and {@code subscriptions/listen} are {@code METHOD_NOT_FOUND} on a legacy
 * session.
 */
public final class McpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String OPENING = McpServer.class.getName() + ".opening";

  /** The SLF4J MDC key under which a handler's log lines carry the request's W3C traceparent. */
  public static final String TRACE_MDC = "traceparent";

  private static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
  private static final Set<String> REMOVED_IN_MODERN =
      Set.of(
          "initialize",
          "ping",
          "logging/setLevel",
          "resources/subscribe",
          "resources/unsubscribe",
          "tasks/result",
          "tasks/list");
  private static final Set<String> MODERN_ONLY = Set.of("server/discover", "subscriptions/listen");
  private static final Set<String> CACHEABLE =
      Set.of(
          "server/discover",
          "tools/list",
          "prompts/list",
          "resources/list",
          "resources/templates/list",
          "resources/read",
          "skills/list");

  private final ServerInfo info;
  // The server's identity every modern result carries in _meta: one tree, never changed, shared by
  // every result (writers and the outbound filter copy before they change anything).
  private final ObjectNode serverInfo;
  private final Function<Era, ? extends JsonNode> capabilities;
  private final Map<String, AsyncMethodHandler> handlers;
  private final Map<String, Set<Era>> handlerEras;
  private final ChangeFeed changes = new ChangeFeed();
  private final long cacheTtlMillis;
  private final Map<String, NotificationHandler> notificationHandlers;
  private final List<SessionListener> listeners;
  private final List<RequestListener> requestListeners;
  private final ExecutorService executor;
  private final boolean ownsExecutor;
  private final Clock clock;
  private final SecureRandom random;
  private final ObjectMapper mapper;
  private final CompletableFuture<?> readiness;
  private final UnaryOperator<JsonNode> outbound;
  private final Duration clientRequestTimeout;
  private final Predicate<JsonRpcMessage.Request> changesListing;

  private McpServer(Builder builder) {
    this.info = builder.info;
    this.serverInfo = NODES.objectNode().put("name", info.name()).put("version", info.version());
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
    Map<String, Set<Era>> eras = new HashMap<>();
    all.keySet().forEach(m -> eras.put(m, builder.eras.getOrDefault(m, EnumSet.allOf(Era.class))));
    this.handlerEras = Map.copyOf(eras);
    this.cacheTtlMillis = builder.cacheTtlMillis;
    this.notificationHandlers = Map.copyOf(builder.notificationHandlers);
    this.listeners = new CopyOnWriteArrayList<>(builder.listeners);
    this.requestListeners = List.copyOf(builder.requestListeners);
    this.readiness = builder.readiness;
    this.changesListing = builder.changesListing;
    this.outbound = builder.outbound;
    this.clientRequestTimeout = builder.clientRequestTimeout;
  }

  /** How long a request to a client waits for its answer unless the builder says otherwise. */
  public static final Duration DEFAULT_CLIENT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** Starts a server description with the identity it reports to clients. */
  public static Builder builder(ServerInfo info) {
    return new Builder(info);
  }

  /**
   * The JSON-RPC request methods this server answers in either era: its own ({@code initialize},
   * {@code ping}, {@code logging/setLevel}, {@code server/discover}, {@code subscriptions/listen})
   * and every registered handler's.
   */
  public Set<String> methods() {
    Set<String> all = new java.util.TreeSet<>(handlers.keySet());
    all.addAll(
        List.of(
            "initialize", "ping", "logging/setLevel", "server/discover", "subscriptions/listen"));
    return java.util.Collections.unmodifiableSet(all);
  }

  /** The identity reported in {@code initialize}. */
  public ServerInfo info() {
    return info;
  }

  /**
   * Where the application publishes changes for the modern era's {@code subscriptions/listen}
   * streams (legacy sessions are told on their own channels).
   */
  public ChangeFeed changes() {
    return changes;
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
    return openSession(channel, Caller.LOCAL);
  }

  /**
   * Opens a new session as {@link #openSession(OutboundChannel)} does, owned by {@code owner}: its
   * requests act for that caller.
   */
  public McpSession openSession(OutboundChannel channel, Caller owner) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    StringBuilder id = new StringBuilder(32);
    for (byte b : bytes) {
      id.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return new McpSession(id.toString(), channel, clock, clientRequestTimeout, owner);
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
    if (!StrictUtf8.isValid(bytes, offset, length)) {
      // The JSON parser would decode overlong forms and lone surrogates; they are refused here.
      return new JsonRpcMessage.Malformed(
          null, new McpException(ErrorKind.PARSE_ERROR, "Parse error: the message is not UTF-8"));
    }
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

  /**
   * Serializes a message as compact UTF-8 JSON (never containing a raw newline), after the
   * builder's {@linkplain Builder#outboundFilter outbound filter}: every message the transports
   * send passes through here.
   */
  public byte[] write(JsonNode message) {
    try {
      return mapper.writeValueAsBytes(outbound.apply(message));
    } catch (JsonProcessingException | RuntimeException e) {
      try {
        return mapper.writeValueAsBytes(internalError(message, e));
      } catch (JsonProcessingException impossible) {
        throw new IllegalStateException("A JSON tree could not be serialized", impossible);
      }
    }
  }

  /**
   * Like {@link #write(JsonNode)}, straight into {@code out}, which the caller owns: a transport
   * that writes from buffers of its own needs no array in between. On a failure {@code out} may
   * hold part of the message; the caller discards it and falls back to {@link #write(JsonNode)},
   * which answers with an internal error.
   */
  public void writeTo(JsonNode message, OutputStream out) throws IOException {
    mapper.writeValue(out, outbound.apply(message));
  }

  /**
   * What goes out instead of {@code message}, which could not be serialized: a response still
   * answers its request, with an internal error; anything else cannot be sent.
   *
   * @throws IllegalStateException when {@code message} is not a response
   */
  private static ObjectNode internalError(JsonNode message, Exception failure) {
    JsonNode id = message.get("id");
    if (id == null || !(message.has("result") || message.has("error"))) {
      throw new IllegalStateException("A JSON tree could not be serialized", failure);
    }
    LOG.error("the response to request {} could not be serialized", id, failure);
    ObjectNode error = NODES.objectNode().put("jsonrpc", "2.0");
    error.set("id", id);
    error.putObject("error").put("code", -32603).put("message", "Internal error");
    return error;
  }

  /**
   * A writer of whole messages, one after another, for a transport with one output of its own (a
   * stdio pipe). It keeps one generator for every message, where {@link #write(JsonNode)} makes a
   * generator, a buffer and an array per message; not thread-safe, so the transport holds its own
   * lock around each call.
   */
  public MessageWriter messageWriter() {
    return new MessageWriter(mapper, outbound);
  }

  /**
   * Serializes messages into a buffer it reuses; see {@link McpServer#messageWriter()}. A message
   * that cannot be serialized leaves nothing behind: its part is dropped with the generator.
   */
  public static final class MessageWriter {
    // A message this large once does not keep its buffer: the next one starts small again.
    private static final int KEPT_BUFFER_BYTES = 256 * 1024;

    private final ObjectMapper mapper;
    private final UnaryOperator<JsonNode> outbound;
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
    private JsonGenerator generator;

    private MessageWriter(ObjectMapper mapper, UnaryOperator<JsonNode> outbound) {
      this.mapper = mapper;
      this.outbound = outbound;
    }

    /**
     * Writes {@code message} and a line end to {@code out}, which is then flushed; on an error
     * nothing is written to {@code out}, and a response that cannot be serialized is replaced by an
     * internal error, as {@link McpServer#write(JsonNode)} does.
     */
    public void writeLine(JsonNode message, OutputStream out) throws IOException {
      boolean whole = false;
      try {
        try {
          serialize(outbound.apply(message));
        } catch (IOException | RuntimeException e) {
          generator = null;
          buffer.reset();
          serialize(internalError(message, e));
        }
        whole = true;
        buffer.write('\n');
        buffer.writeTo(out);
        out.flush();
      } finally {
        // Whatever happened, the next message starts on an empty buffer, and on a generator that
        // holds no part of this one.
        if (!whole || buffer.size() > KEPT_BUFFER_BYTES) {
          generator = null;
        }
        if (buffer.size() > KEPT_BUFFER_BYTES) {
          buffer = new ByteArrayOutputStream(4096);
        } else {
          buffer.reset();
        }
      }
    }

    private void serialize(JsonNode message) throws IOException {
      if (generator == null) {
        generator = mapper.createGenerator(buffer);
        // Messages are separated by line ends, not by the generator's space between root values.
        generator.setRootValueSeparator(null);
      }
      mapper.writeTree(generator, message);
      generator.flush();
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
    received(Era.LEGACY, method);
    try {
      switch (method) {
        case "initialize":
          return completed(request, initialize(session, request.params()));
        case "ping":
          return completed(request, NODES.objectNode());
        default:
          break;
      }
      AsyncMethodHandler handler = servedIn(method, Era.LEGACY) ? handlers.get(method) : null;
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
    CompletableFuture<?> gate = gate(session);
    if (changesListing.test(request)) {
      // Later requests of the session start once this one is answered; it waits for the last
      // change before it.
      CompletableFuture<Void> answered = new CompletableFuture<>();
      CompletableFuture<?> prior = session.nextChange(answered);
      CompletableFuture<JsonNode> response =
          invoke(ctx, request, handler, after(gate, prior), () -> session.unregister(ctx));
      response.whenComplete((value, failure) -> answered.complete(null));
      return response;
    }
    return invoke(
        ctx, request, handler, after(gate, session.lastChange()), () -> session.unregister(ctx));
  }

  /** Done once {@code gate} and {@code prior} are, failing as {@code gate} does. */
  private static CompletableFuture<?> after(CompletableFuture<?> gate, CompletableFuture<?> prior) {
    return prior.isDone() ? gate : prior.thenCompose(done -> gate);
  }

  private CompletableFuture<JsonNode> invoke(
      RequestContext ctx,
      JsonRpcMessage.Request request,
      AsyncMethodHandler handler,
      CompletableFuture<?> gate,
      Runnable finished) {
    CompletableFuture<JsonNode> result;
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
          finished.run();
          if (failure != null) {
            ctx.response().complete(ErrorMapper.toResponse(request.id(), failure, ctx.era()));
            return;
          }
          JsonNode answer = value == null ? NODES.objectNode() : value;
          if (ctx.isStateless()) {
            answer = decorate(request.method(), answer);
          }
          ctx.response().complete(success(request.id(), answer));
        });
    return ctx.response();
  }

  /**
   * Answers one modern-era request whose {@code _meta} the transport has read (and, over HTTP,
   * checked against the headers). The returned call completes with the response, or with null when
   * the call was cancelled (no response is sent then).
   */
  public ModernCall dispatchModern(
      JsonRpcMessage.Request request, RequestMeta meta, OutboundChannel channel, Caller caller) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(meta, "meta");
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(caller, "caller");
    String method = request.method();
    received(Era.MODERN, method);
    RequestContext ctx =
        new RequestContext(meta, caller, request.id(), method, request.params(), channel);
    try {
      if (REMOVED_IN_MODERN.contains(method)) {
        throw removed(method);
      }
      if ("server/discover".equals(method)) {
        ctx.response().complete(success(request.id(), decorate(method, discover())));
        return new ModernCall(ctx);
      }
      if ("subscriptions/listen".equals(method)) {
        AsyncMethodHandler listen =
            (c, p) -> {
              try {
                return listen(c, p);
              } catch (McpException e) {
                return CompletableFuture.failedFuture(e);
              }
            };
        return new ModernCall(ctx, invoke(ctx, request, listen, readiness, () -> {}));
      }
      AsyncMethodHandler handler = servedIn(method, Era.MODERN) ? handlers.get(method) : null;
      if (handler == null) {
        throw new McpException(ErrorKind.METHOD_NOT_FOUND, "Method not found: " + method);
      }
      return new ModernCall(ctx, invoke(ctx, request, handler, readiness, () -> {}));
    } catch (McpException e) {
      ctx.response().complete(ErrorMapper.toResponse(request.id(), e, Era.MODERN));
      return new ModernCall(ctx);
    }
  }

  /**
   * Like {@link #dispatchModern(JsonRpcMessage.Request, RequestMeta, OutboundChannel, Caller)},
   * reading the request's {@code _meta} first; a request whose {@code _meta} is missing, malformed
   * or names a revision we do not speak is answered with that error.
   */
  public ModernCall dispatchModern(
      JsonRpcMessage.Request request, OutboundChannel channel, Caller caller) {
    if (REMOVED_IN_MODERN.contains(request.method())) {
      received(Era.MODERN, request.method());
      return ModernCall.answered(
          ErrorMapper.toResponse(request.id(), removed(request.method()), Era.MODERN));
    }
    RequestMeta meta;
    try {
      meta = RequestMeta.read(request.params());
    } catch (McpException e) {
      received(Era.MODERN, request.method());
      return ModernCall.answered(ErrorMapper.toResponse(request.id(), e, Era.MODERN));
    }
    return dispatchModern(request, meta, channel, caller);
  }

  /**
   * The error for a method the modern era removed; for {@code initialize} it names every revision
   * the server speaks, so a client that only knows the handshake can tell its user why.
   */
  private static McpException removed(String method) {
    ObjectNode data = NODES.objectNode();
    ProtocolVersion.supportedWire().forEach(data.putArray("supported")::add);
    return new McpException(
        ErrorKind.METHOD_NOT_FOUND,
        "Method not found: "
            + method
            + " is not part of "
            + ProtocolVersion.V2026_07_28.wire()
            + (method.equals("initialize")
                ? " (this server speaks " + String.join(", ", ProtocolVersion.supportedWire()) + ")"
                : ""),
        method.equals("initialize") ? data : null);
  }

  /** Tells the request listeners; a method not served in {@code era} is reported as unknown. */
  private void received(Era era, String method) {
    if (requestListeners.isEmpty()) {
      return;
    }
    String label = served(era, method) ? method : RequestListener.UNKNOWN_METHOD;
    for (RequestListener listener : requestListeners) {
      listener.requestReceived(era, label);
    }
  }

  private boolean served(Era era, String method) {
    return switch (method) {
      case "initialize", "ping", "logging/setLevel" -> era == Era.LEGACY;
      case "server/discover", "subscriptions/listen" -> era == Era.MODERN;
      default -> servedIn(method, era) && handlers.containsKey(method);
    };
  }

  /** The {@code server/discover} result (before the common result fields are added). */
  public ObjectNode discover() {
    ObjectNode result = NODES.objectNode();
    ArrayNode versions = result.putArray("supportedVersions");
    ProtocolVersion.supportedWire().forEach(versions::add);
    result.set("capabilities", capabilities(Era.MODERN));
    info.instructionsText().ifPresent(text -> result.put("instructions", text));
    return result;
  }

  private boolean servedIn(String method, Era era) {
    Set<Era> eras = handlerEras.get(method);
    if (eras == null) {
      return false;
    }
    return eras.contains(era) && !(era == Era.LEGACY && MODERN_ONLY.contains(method));
  }

  /**
   * The fields every modern result carries: {@code resultType} ({@code complete} unless the handler
   * set another), the server's identity in {@code _meta}, and on lists and reads the cache hints
   * the handler did not set itself. The handler's object is copied, never changed.
   */
  private ObjectNode decorate(String method, JsonNode value) {
    ObjectNode out = NODES.objectNode();
    if (value instanceof ObjectNode object) {
      out.setAll(object);
    }
    if (!out.hasNonNull("resultType")) {
      out.put("resultType", "complete");
    }
    ObjectNode meta =
        out.get("_meta") instanceof ObjectNode existing ? existing.deepCopy() : NODES.objectNode();
    if (!meta.has(RequestMeta.SERVER_INFO)) {
      meta.set(RequestMeta.SERVER_INFO, serverInfo);
    }
    out.set("_meta", meta);
    if (CACHEABLE.contains(method) && "complete".equals(out.path("resultType").asText())) {
      if (!out.has("ttlMs")) {
        out.put("ttlMs", cacheTtlMillis);
      }
      if (!out.has("cacheScope")) {
        out.put("cacheScope", "public");
      }
    }
    return out;
  }

  /**
   * {@code subscriptions/listen}: acknowledges the kinds of notification the server agrees to send,
   * then keeps the request open; its stream receives those notifications until the client ends it
   * (closing the stream, or {@code notifications/cancelled} on stdio) or the server stops (then the
   * request is answered, a graceful end).
   */
  private CompletableFuture<JsonNode> listen(RequestContext ctx, JsonNode params)
      throws McpException {
    JsonNode wanted = params.path("notifications");
    if (!wanted.isMissingNode() && !wanted.isObject()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "notifications must be an object");
    }
    JsonNode caps = capabilities(Era.MODERN);
    boolean tools =
        wanted.path("toolsListChanged").asBoolean(false)
            && caps.path("tools").path("listChanged").asBoolean(false);
    boolean prompts =
        wanted.path("promptsListChanged").asBoolean(false)
            && caps.path("prompts").path("listChanged").asBoolean(false);
    boolean resources =
        wanted.path("resourcesListChanged").asBoolean(false)
            && caps.path("resources").path("listChanged").asBoolean(false);
    Set<String> uris = new LinkedHashSet<>();
    if (caps.path("resources").path("subscribe").asBoolean(false)) {
      strings(wanted.path("resourceSubscriptions"), "resourceSubscriptions", uris);
    }
    Set<String> taskIds = new LinkedHashSet<>();
    strings(wanted.path("taskIds"), "taskIds", taskIds);
    if (!taskIds.isEmpty() && !ctx.clientSupportsExtension(TASKS_EXTENSION)) {
      ObjectNode data = NODES.objectNode();
      data.putObject("requiredCapabilities").putObject("extensions").putObject(TASKS_EXTENSION);
      throw new McpException(
          ErrorKind.MISSING_CLIENT_CAPABILITY,
          "Missing required client capability: task notifications need the "
              + TASKS_EXTENSION
              + " extension",
          data);
    }
    if (caps.path("extensions").path(TASKS_EXTENSION).isMissingNode()) {
      taskIds.clear();
    }
    ChangeFeed.Filter filter = new ChangeFeed.Filter(tools, prompts, resources, uris, taskIds);
    ChangeFeed.Listener listener = changes.open(ctx.requestId(), filter, ctx);
    ctx.onCancel(() -> changes.close(listener));
    ObjectNode honored = NODES.objectNode();
    ObjectNode notifications = honored.putObject("notifications");
    if (tools) {
      notifications.put("toolsListChanged", true);
    }
    if (prompts) {
      notifications.put("promptsListChanged", true);
    }
    if (resources) {
      notifications.put("resourcesListChanged", true);
    }
    if (!uris.isEmpty()) {
      uris.forEach(notifications.putArray("resourceSubscriptions")::add);
    }
    if (!taskIds.isEmpty()) {
      taskIds.forEach(notifications.putArray("taskIds")::add);
    }
    listener.acknowledge(honored);
    return listener.done;
  }

  private static void strings(JsonNode array, String name, Set<String> into) throws McpException {
    if (array.isMissingNode() || array.isNull()) {
      return;
    }
    if (!array.isArray()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, name + " must be an array of strings");
    }
    for (JsonNode item : array) {
      if (!item.isTextual()) {
        throw new McpException(ErrorKind.INVALID_PARAMS, name + " must be an array of strings");
      }
      into.add(item.asText());
    }
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

  /**
   * A transport's offer to run a worker handler's call on the thread that read its request, which
   * saves waking a worker. It answers false to leave the call to the server's workers.
   */
  public interface CallerRuns {
    /** Runs {@code call} on this thread and answers true, or answers false without running it. */
    boolean tryRun(Runnable call);
  }

  // Set only while a transport dispatches on the thread that read the request.
  private static final ThreadLocal<CallerRuns> CALLER_RUNS = new ThreadLocal<>();

  /**
   * Answers {@code dispatch()} with {@code here} offered to the worker handlers it starts on this
   * thread. A call started later (one that waited for the server to start) goes to the workers.
   */
  public static <T> T offeringThisThread(CallerRuns here, Supplier<T> dispatch) {
    CALLER_RUNS.set(Objects.requireNonNull(here, "here"));
    try {
      return dispatch.get();
    } finally {
      CALLER_RUNS.remove();
    }
  }

  private AsyncMethodHandler onWorker(MethodHandler handler) {
    return (ctx, params) -> {
      CompletableFuture<JsonNode> result = new CompletableFuture<>();
      Runnable call =
          () -> {
            if (ctx.cancelled()) {
              result.complete(null);
              return;
            }
            run(handler, ctx, params, result);
          };
      CallerRuns here = CALLER_RUNS.get();
      if (here != null) {
        // Offered once: whatever this call starts in turn goes to the workers.
        CALLER_RUNS.remove();
        if (here.tryRun(call)) {
          return result;
        }
      }
      try {
        executor.execute(call);
      } catch (RejectedExecutionException e) {
        result.completeExceptionally(
            new McpException(ErrorKind.INTERNAL_ERROR, "Server busy: too many calls in flight"));
      }
      return result;
    };
  }

  private static AsyncMethodHandler inline(MethodHandler handler) {
    return (ctx, params) -> {
      CompletableFuture<JsonNode> result = new CompletableFuture<>();
      run(handler, ctx, params, result);
      return result;
    };
  }

  /**
   * Runs {@code handler} on this thread into {@code result}; log lines written meanwhile carry the
   * caller's trace context.
   */
  private static void run(
      MethodHandler handler,
      RequestContext ctx,
      JsonNode params,
      CompletableFuture<JsonNode> result) {
    String trace = ctx.traceparent().orElse(null);
    if (trace != null) {
      MDC.put(TRACE_MDC, trace);
    }
    try {
      result.complete(handler.handle(ctx, params));
    } catch (Throwable t) { // complete even on Errors so the client is never left waiting
      result.completeExceptionally(t);
    } finally {
      if (trace != null) {
        MDC.remove(TRACE_MDC);
      }
    }
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
        ProtocolVersion.fromWire(requested.asText())
            .filter(v -> v.era() == Era.LEGACY)
            .orElse(ProtocolVersion.LATEST);
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
    return capabilities(Era.LEGACY);
  }

  private ObjectNode capabilities(Era era) {
    JsonNode supplied = capabilities.apply(era);
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

  /**
   * Ends open {@code subscriptions/listen} streams gracefully and stops the worker pool if the
   * server created it; calls still running are interrupted.
   */
  @Override
  public void close() {
    changes.closeAll();
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
    private Function<Era, ? extends JsonNode> capabilities =
        era -> JsonNodeFactory.instance.objectNode();
    private final Map<String, Set<Era>> eras = new HashMap<>();
    private long cacheTtlMillis = 60_000;
    private final Map<String, MethodHandler> syncHandlers = new HashMap<>();
    private final Map<String, AsyncMethodHandler> asyncHandlers = new HashMap<>();
    private final Map<String, NotificationHandler> notificationHandlers = new HashMap<>();
    private final List<SessionListener> listeners = new ArrayList<>();
    private final List<RequestListener> requestListeners = new ArrayList<>();
    private ExecutorService executor;
    private int workerThreads = 16;
    private Clock clock = Clock.systemUTC();
    private SecureRandom random = new SecureRandom();
    private CompletableFuture<?> readiness = CompletableFuture.completedFuture(null);
    private UnaryOperator<JsonNode> outbound = UnaryOperator.identity();
    private Duration clientRequestTimeout = DEFAULT_CLIENT_REQUEST_TIMEOUT;
    private Predicate<JsonRpcMessage.Request> changesListing = request -> false;

    private Builder(ServerInfo info) {
      this.info = Objects.requireNonNull(info, "info");
    }

    /**
     * Supplies the {@code capabilities} object for each {@code initialize} (for example {@code
     * {"tools": {"listChanged": true}}}); {@code logging} is added by the core.
     */
    public Builder capabilities(Supplier<? extends JsonNode> supplier) {
      Objects.requireNonNull(supplier, "supplier");
      this.capabilities = era -> supplier.get();
      return this;
    }

    /**
     * Supplies the capabilities per era: for {@code initialize} ({@link Era#LEGACY}) and for {@code
     * server/discover} ({@link Era#MODERN}, where extensions defined only for the modern era
     * belong).
     */
    public Builder capabilities(Function<Era, ? extends JsonNode> perEra) {
      this.capabilities = Objects.requireNonNull(perEra, "perEra");
      return this;
    }

    /**
     * Serves {@code methods} (registered before or after) only in {@code era}; elsewhere they are
     * {@code METHOD_NOT_FOUND}. Methods are served in both eras unless restricted.
     */
    public Builder onlyIn(Era era, String... methods) {
      Objects.requireNonNull(era, "era");
      for (String method : methods) {
        eras.put(Objects.requireNonNull(method, "method"), EnumSet.of(era));
      }
      return this;
    }

    /**
     * How long (ms) a modern client may consider lists and reads fresh when their handler sets no
     * {@code ttlMs} itself (default one minute).
     */
    public Builder cacheTtlMillis(long millis) {
      if (millis < 0) {
        throw new IllegalArgumentException("cacheTtlMillis must be >= 0");
      }
      this.cacheTtlMillis = millis;
      return this;
    }

    /** Registers a blocking handler; it runs on the worker pool. */
    public Builder handler(String method, MethodHandler handler) {
      checkMethod(method);
      syncHandlers.put(method, Objects.requireNonNull(handler, "handler"));
      return this;
    }

    /**
     * Registers a handler that answers from what the server holds, without blocking or waiting (a
     * page of a list): it runs on the thread that received the request, which saves the hand-off to
     * the worker pool and back.
     */
    public Builder quickHandler(String method, MethodHandler handler) {
      checkMethod(method);
      asyncHandlers.put(method, inline(Objects.requireNonNull(handler, "handler")));
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

    /** Adds a listener told of every request, in both eras. */
    public Builder requestListener(RequestListener listener) {
      requestListeners.add(Objects.requireNonNull(listener, "listener"));
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

    /**
     * How long a request to a client (roots, sampling, elicitation) waits for its answer before it
     * fails and the client is told it is cancelled; {@link #DEFAULT_CLIENT_REQUEST_TIMEOUT} unless
     * set.
     */
    public Builder clientRequestTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("the client request timeout must be positive");
      }
      this.clientRequestTimeout = timeout;
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
    /**
     * Marks the requests that change what their own session lists (for example a call that adds
     * tools to it). On a 2025-era session such a request is ordered before every request dispatched
     * after it: those start once it is answered, so a call sent right behind one that adds its tool
     * finds the tool. Other requests of a session still run concurrently. Stateless requests have
     * no session and are not ordered.
     */
    public Builder changesListing(Predicate<JsonRpcMessage.Request> changesListing) {
      this.changesListing = Objects.requireNonNull(changesListing, "changesListing");
      return this;
    }

    public Builder readiness(CompletableFuture<?> readiness) {
      this.readiness = Objects.requireNonNull(readiness, "readiness");
      return this;
    }

    /**
     * A last pass over every message before it is written (responses, notifications, requests to
     * the client), such as a redactor; it must not change the tree it is given, only return
     * another.
     */
    public Builder outboundFilter(UnaryOperator<JsonNode> filter) {
      this.outbound = Objects.requireNonNull(filter, "filter");
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
          || MODERN_ONLY.contains(method)
          || syncHandlers.containsKey(method)
          || asyncHandlers.containsKey(method)) {
        throw new IllegalArgumentException("A handler for " + method + " is already registered");
      }
    }
  }
}
