package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's conversation with the server: its negotiated revision, what the client said about
 * itself, its log level, the application's per-session state, and the channel for server-to-client
 * messages. Thread-safe.
 */
public final class McpSession {
  private static final Logger LOG = LoggerFactory.getLogger(McpSession.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final String id;
  private final OutboundChannel channel;
  private final Clock clock;
  private final Duration requestTimeout;
  private final Caller owner;
  private final ConcurrentMap<String, Object> attributes = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, RequestContext> inFlight = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, CompletableFuture<JsonNode>> pendingServerRequests =
      new ConcurrentHashMap<>();
  private final AtomicLong serverRequestIds = new AtomicLong();

  private volatile ProtocolVersion protocolVersion;
  private volatile JsonNode clientInfo = MissingNode.getInstance();
  private volatile JsonNode clientCapabilities = NODES.objectNode();
  private volatile LogLevel logLevel = LogLevel.INFO;
  private volatile boolean clientReady;
  private volatile boolean closed;
  private volatile Instant lastActivity;
  // Done once the last request that changes what this session lists is answered.
  private final AtomicReference<CompletableFuture<?>> lastChange =
      new AtomicReference<>(CompletableFuture.completedFuture(null));

  McpSession(
      String id, OutboundChannel channel, Clock clock, Duration requestTimeout, Caller owner) {
    this.id = Objects.requireNonNull(id, "id");
    this.owner = Objects.requireNonNull(owner, "owner").withoutHeaders();
    this.channel = Objects.requireNonNull(channel, "channel");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
    this.lastActivity = clock.instant();
  }

  /**
   * The caller that opened the session: every request on it acts for this caller, and only this
   * caller may use the session ({@link dev.skillport.api.owner.Principal#owns(String)}).
   */
  public Caller owner() {
    return owner;
  }

  /** The session id (the {@code Mcp-Session-Id} over HTTP); unguessable. */
  public String id() {
    return id;
  }

  /** The negotiated revision; empty until {@code initialize} succeeded. */
  public Optional<ProtocolVersion> protocolVersion() {
    return Optional.ofNullable(protocolVersion);
  }

  /** Whether {@code initialize} succeeded on this session. */
  public boolean isInitialized() {
    return protocolVersion != null;
  }

  /** Whether the client sent {@code notifications/initialized}. */
  public boolean isClientReady() {
    return clientReady;
  }

  /** The client's {@code clientInfo} object; missing before initialize. */
  public JsonNode clientInfo() {
    return clientInfo;
  }

  /** The client's declared capabilities; an empty object before initialize. */
  public JsonNode clientCapabilities() {
    return clientCapabilities;
  }

  /**
   * Whether the client declared capability {@code name} (for example "sampling", "elicitation").
   */
  public boolean clientSupports(String name) {
    JsonNode capability = clientCapabilities.get(name);
    return capability != null && !capability.isNull();
  }

  /** The lowest level of log notification the client wants (default {@link LogLevel#INFO}). */
  public LogLevel logLevel() {
    return logLevel;
  }

  /** The application's per-session state, keyed by name. */
  public ConcurrentMap<String, Object> attributes() {
    return attributes;
  }

  /** A typed attribute, if present and of that type. */
  public <T> Optional<T> attribute(String key, Class<T> type) {
    Object value = attributes.get(key);
    return type.isInstance(value) ? Optional.of(type.cast(value)) : Optional.empty();
  }

  /** When the client last sent something on this session. */
  public Instant lastActivity() {
    return lastActivity;
  }

  /** Whether the session has ended. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * Sends a notification (for example {@code notifications/tools/list_changed}) on the session's
   * channel. Over HTTP it goes to the client's open GET stream, or waits in a small buffer until
   * one opens.
   */
  public void notify(String method, JsonNode params) {
    Objects.requireNonNull(method, "method");
    if (closed) {
      LOG.debug("Dropping {} for closed session {}", method, id);
      return;
    }
    channel.send(notification(method, params));
  }

  /**
   * Sends a request to the client on the session's channel and completes with its {@code result},
   * or exceptionally with an {@link McpException} when the client answers with an error or the
   * session ends, or with a {@link TimeoutException} naming the method and the timeout when the
   * client does not answer in time (the client is then told the request is cancelled).
   */
  public CompletableFuture<JsonNode> sendRequest(String method, JsonNode params) {
    return sendRequest(method, params, channel);
  }

  void touch() {
    lastActivity = clock.instant();
  }

  void initialize(ProtocolVersion version, JsonNode info, JsonNode capabilities) {
    this.clientInfo = info == null ? MissingNode.getInstance() : info;
    this.clientCapabilities =
        capabilities != null && capabilities.isObject() ? capabilities : NODES.objectNode();
    this.protocolVersion = version;
  }

  void markClientReady() {
    clientReady = true;
  }

  void setLogLevel(LogLevel level) {
    logLevel = Objects.requireNonNull(level, "level");
  }

  CompletableFuture<JsonNode> sendRequest(String method, JsonNode params, OutboundChannel via) {
    Objects.requireNonNull(method, "method");
    CompletableFuture<JsonNode> result = new CompletableFuture<>();
    if (closed) {
      result.completeExceptionally(
          new McpException(ErrorKind.INTERNAL_ERROR, "Session " + id + " is closed"));
      return result;
    }
    String requestId = "s" + serverRequestIds.incrementAndGet();
    String key = requestKey(TextNode.valueOf(requestId));
    pendingServerRequests.put(key, result);
    // However the request ends (answered, timed out, abandoned by its caller), it is not pending.
    result.whenComplete((answer, failure) -> pendingServerRequests.remove(key, result));
    CompletableFuture.delayedExecutor(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .execute(() -> timeOut(result, method, requestId, via));
    ObjectNode message = NODES.objectNode();
    message.put("jsonrpc", "2.0");
    message.put("id", requestId);
    message.put("method", method);
    if (params != null) {
      message.set("params", params);
    }
    via.send(message);
    return result;
  }

  private void timeOut(
      CompletableFuture<JsonNode> result, String method, String requestId, OutboundChannel via) {
    boolean timedOut =
        result.completeExceptionally(
            new TimeoutException(
                method + " got no answer within " + readable(requestTimeout) + " from the client"));
    if (timedOut && !closed) {
      ObjectNode params = NODES.objectNode().put("requestId", requestId);
      params.put("reason", "no answer within " + readable(requestTimeout));
      try {
        via.send(notification("notifications/cancelled", params));
      } catch (RuntimeException e) { // the call's stream may have ended meanwhile
        LOG.debug("Session {}: cancellation of {} not sent: {}", id, requestId, e.toString());
      }
    }
  }

  /** A timeout as people write it: whole seconds when it is a whole number of them. */
  static String readable(Duration timeout) {
    return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
  }

  /** Requests to the client still waiting for an answer. */
  int pendingServerRequests() {
    return pendingServerRequests.size();
  }

  void completeServerRequest(JsonRpcMessage.Response response) {
    CompletableFuture<JsonNode> pending = pendingServerRequests.remove(requestKey(response.id()));
    if (pending == null) {
      LOG.debug("Session {}: response to unknown request {}", id, response.id());
      return;
    }
    if (response.error() != null) {
      JsonNode error = response.error();
      pending.completeExceptionally(
          new McpException(
              ErrorKind.INTERNAL_ERROR,
              "Client answered with error "
                  + error.path("code").asText("?")
                  + ": "
                  + error.path("message").asText(""),
              error));
    } else {
      pending.complete(response.result());
    }
  }

  /** What a request dispatched now waits for: the answer of the last listing change before it. */
  CompletableFuture<?> lastChange() {
    return lastChange.get();
  }

  /**
   * Makes {@code change} the last listing change (requests dispatched from now on wait for it) and
   * answers the one before it, which {@code change} itself waits for.
   */
  CompletableFuture<?> nextChange(CompletableFuture<?> change) {
    return lastChange.getAndSet(change);
  }

  void register(RequestContext ctx) {
    inFlight.put(requestKey(ctx.requestId()), ctx);
  }

  void unregister(RequestContext ctx) {
    inFlight.remove(requestKey(ctx.requestId()), ctx);
  }

  Optional<RequestContext> inFlight(JsonNode requestId) {
    return Optional.ofNullable(inFlight.get(requestKey(requestId)));
  }

  /** Ends the session: cancels calls in flight and fails requests waiting for the client. */
  boolean close() {
    if (closed) {
      return false;
    }
    closed = true;
    List<RequestContext> running = new ArrayList<>(inFlight.values());
    inFlight.clear();
    running.forEach(ctx -> ctx.cancel("session closed"));
    for (Map.Entry<String, CompletableFuture<JsonNode>> pending :
        pendingServerRequests.entrySet()) {
      pending
          .getValue()
          .completeExceptionally(new McpException(ErrorKind.INTERNAL_ERROR, "Session closed"));
    }
    pendingServerRequests.clear();
    return true;
  }

  void send(JsonNode message) {
    channel.send(message);
  }

  static ObjectNode notification(String method, JsonNode params) {
    ObjectNode message = NODES.objectNode();
    message.put("jsonrpc", "2.0");
    message.put("method", method);
    if (params != null && !params.isMissingNode()) {
      message.set("params", params);
    }
    return message;
  }

  /**
   * A request id as a map key: a number by its decimal digits, however it was parsed (an int, a
   * long or a big integer), a string by its JSON text with its quotes, so the number 1 and the
   * string "1" stay apart.
   */
  public static String requestKey(JsonNode requestId) {
    if (requestId.isIntegralNumber()) {
      return requestId.canConvertToLong()
          ? Long.toString(requestId.longValue())
          : requestId.bigIntegerValue().toString();
    }
    return requestId.toString();
  }

  @Override
  public String toString() {
    return "McpSession[" + id + "]";
  }
}
