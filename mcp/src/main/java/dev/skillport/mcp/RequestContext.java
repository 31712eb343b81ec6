package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a handler may do for the request it is answering: learn who asks and what the client
 * supports, report progress, log to the client, ask the client something (legacy era), and notice
 * cancellation. Messages sent through it travel with the request (over HTTP, on the POST's event
 * stream when the client accepts one). Thread-safe.
 *
 * <p>In the legacy era the request belongs to a session, which holds the negotiated revision, the
 * client's capabilities and its log level. In the modern era there is no session: the request's own
 * {@code _meta} ({@link RequestMeta}) says all of that.
 */
public final class RequestContext {
  private static final Logger LOG = LoggerFactory.getLogger(RequestContext.class);

  private final McpSession session;
  private final RequestMeta modern;
  private final Caller caller;
  private final JsonNode requestId;
  private final String method;
  private final JsonNode meta;
  private final OutboundChannel channel;
  private final CompletableFuture<JsonNode> response = new CompletableFuture<>();
  private final List<Runnable> cancelHooks = new CopyOnWriteArrayList<>();
  private final Object progressLock = new Object();

  private volatile boolean cancelled;
  private volatile String cancelReason;
  private double lastProgress = Double.NEGATIVE_INFINITY;

  /** A legacy-era request on {@code session}. */
  RequestContext(
      McpSession session,
      JsonNode requestId,
      String method,
      JsonNode params,
      OutboundChannel channel) {
    this(
        Objects.requireNonNull(session, "session"),
        null,
        session.owner(),
        requestId,
        method,
        params,
        channel);
  }

  /** A modern-era request described by its own {@code _meta}. */
  RequestContext(
      RequestMeta modern,
      Caller caller,
      JsonNode requestId,
      String method,
      JsonNode params,
      OutboundChannel channel) {
    this(
        null, Objects.requireNonNull(modern, "modern"), caller, requestId, method, params, channel);
  }

  private RequestContext(
      McpSession session,
      RequestMeta modern,
      Caller caller,
      JsonNode requestId,
      String method,
      JsonNode params,
      OutboundChannel channel) {
    this.session = session;
    this.modern = modern;
    this.caller = Objects.requireNonNull(caller, "caller");
    this.requestId = Objects.requireNonNull(requestId, "requestId");
    this.method = Objects.requireNonNull(method, "method");
    JsonNode rawMeta = params == null ? null : params.get("_meta");
    this.meta =
        rawMeta != null && rawMeta.isObject() ? rawMeta : JsonNodeFactory.instance.objectNode();
    this.channel = Objects.requireNonNull(channel, "channel");
  }

  /** Which era the request belongs to. */
  public Era era() {
    return modern != null ? Era.MODERN : Era.LEGACY;
  }

  /** Whether the request is of the stateless (modern) era. */
  public boolean isStateless() {
    return modern != null;
  }

  /** The session the request arrived on; empty in the modern era, which has none. */
  public Optional<McpSession> session() {
    return Optional.ofNullable(session);
  }

  /** The modern-era {@code _meta} of the request; empty in the legacy era. */
  public Optional<RequestMeta> modernMeta() {
    return Optional.ofNullable(modern);
  }

  /** The protocol revision the request speaks (a legacy session's negotiated one). */
  public ProtocolVersion protocolVersion() {
    return modern != null
        ? modern.version()
        : session.protocolVersion().orElse(ProtocolVersion.LATEST);
  }

  /** Who sent the request, as far as the transport knows. */
  public Caller caller() {
    return caller;
  }

  /** The capabilities the client declared (for the session, or for this request). */
  public JsonNode clientCapabilities() {
    return modern != null ? modern.clientCapabilities() : session.clientCapabilities();
  }

  /** The client's name and version, or a missing node. */
  public JsonNode clientInfo() {
    return modern != null ? modern.clientInfo() : session.clientInfo();
  }

  /** Whether the client declared capability {@code name} (for example "sampling"). */
  public boolean clientSupports(String name) {
    return modern != null ? modern.clientSupports(name) : session.clientSupports(name);
  }

  /** Whether the client declared extension {@code id} in its capabilities. */
  public boolean clientSupportsExtension(String id) {
    JsonNode extension = clientCapabilities().path("extensions").get(id);
    return extension != null && !extension.isNull();
  }

  /** The request's W3C trace context, if it carried a valid one. */
  public Optional<String> traceparent() {
    if (modern != null) {
      return Optional.ofNullable(modern.traceparent());
    }
    JsonNode trace = meta.get(RequestMeta.TRACEPARENT);
    return trace != null && trace.isTextual() && RequestMeta.validTraceparent(trace.asText())
        ? Optional.of(trace.asText())
        : Optional.empty();
  }

  /** The JSON-RPC id of the request (a string or an integer). */
  public JsonNode requestId() {
    return requestId;
  }

  /** The method being answered. */
  public String method() {
    return method;
  }

  /** The request's {@code params._meta}; an empty object when absent. */
  public JsonNode meta() {
    return meta;
  }

  /** The client's progress token (a string or a number), if it asked for progress. */
  public Optional<JsonNode> progressToken() {
    JsonNode token = meta.get("progressToken");
    return token != null && (token.isTextual() || token.isNumber())
        ? Optional.of(token)
        : Optional.empty();
  }

  /**
   * Reports progress as {@code notifications/progress}. Sent only when the client gave a progress
   * token and the value grows; otherwise nothing is sent.
   *
   * @param progress the amount done so far; must exceed the previous report
   * @param total the total amount, or null when unknown
   * @param message a human-readable status, or null
   * @return whether a notification was sent
   */
  public boolean progress(double progress, Double total, String message) {
    Optional<JsonNode> token = progressToken();
    if (token.isEmpty() || cancelled || sessionClosed()) {
      return false;
    }
    synchronized (progressLock) {
      if (!(progress > lastProgress)) {
        LOG.debug("Dropping non-increasing progress {} for request {}", progress, requestId);
        return false;
      }
      lastProgress = progress;
      ObjectNode params = JsonNodeFactory.instance.objectNode();
      params.set("progressToken", token.get());
      params.put("progress", progress);
      if (total != null) {
        params.put("total", total);
      }
      if (message != null) {
        params.put("message", message);
      }
      channel.send(McpSession.notification("notifications/progress", params));
    }
    return true;
  }

  /**
   * Sends a {@code notifications/message} log entry when {@code level} reaches the threshold: the
   * session's level (legacy), or the level the request asked for in its {@code _meta} (modern; a
   * request that asked for none gets no log entries at all).
   *
   * @param level severity
   * @param logger name of the emitting component, or null
   * @param data any JSON value (a message string or a structured record)
   * @return whether the entry was sent
   */
  public boolean log(LogLevel level, String logger, JsonNode data) {
    Objects.requireNonNull(level, "level");
    LogLevel threshold = modern != null ? modern.logLevel() : session.logLevel();
    if (threshold == null || !level.atLeast(threshold) || sessionClosed() || cancelled) {
      return false;
    }
    ObjectNode params = JsonNodeFactory.instance.objectNode();
    params.put("level", level.wire());
    if (logger != null) {
      params.put("logger", logger);
    }
    params.set("data", data == null ? JsonNodeFactory.instance.nullNode() : data);
    channel.send(McpSession.notification("notifications/message", params));
    return true;
  }

  /** Sends a text log entry; see {@link #log(LogLevel, String, JsonNode)}. */
  public boolean log(LogLevel level, String logger, String message) {
    return log(level, logger, TextNode.valueOf(message));
  }

  /**
   * Sends a request to the client alongside this request (for example {@code
   * sampling/createMessage}) and completes with the client's result; see {@link
   * McpSession#sendRequest(String, JsonNode)}. Only the legacy era has server-to-client requests:
   * in the modern era the future fails at once, and the application asks through an {@code
   * input_required} result instead.
   */
  public CompletableFuture<JsonNode> sendRequest(String method, JsonNode params) {
    if (session == null) {
      return CompletableFuture.failedFuture(
          new McpException(
              ErrorKind.INTERNAL_ERROR,
              "the stateless era has no server-to-client requests; " + method + " not sent"));
    }
    return session.sendRequest(method, params, channel);
  }

  /** Sends a notification tied to this request on its channel (for example an acknowledgement). */
  public void notify(String method, JsonNode params) {
    if (!cancelled) {
      channel.send(McpSession.notification(method, params));
    }
  }

  private boolean sessionClosed() {
    return session != null && session.isClosed();
  }

  /** Whether the client cancelled this request or its session ended. */
  public boolean cancelled() {
    return cancelled;
  }

  /** Why the request was cancelled, if the client said. */
  public Optional<String> cancelReason() {
    return Optional.ofNullable(cancelReason);
  }

  /**
   * Runs {@code hook} when the request is cancelled (at once if it already is), for example to kill
   * a running script.
   */
  public void onCancel(Runnable hook) {
    Objects.requireNonNull(hook, "hook");
    cancelHooks.add(hook);
    if (cancelled && cancelHooks.remove(hook)) {
      runHook(hook);
    }
  }

  CompletableFuture<JsonNode> response() {
    return response;
  }

  void cancel(String reason) {
    if (cancelled) {
      return;
    }
    cancelReason = reason;
    cancelled = true;
    // No response is sent for a cancelled request; completing with null tells the transport so.
    response.complete(null);
    for (Runnable hook : cancelHooks) {
      if (cancelHooks.remove(hook)) {
        runHook(hook);
      }
    }
  }

  private void runHook(Runnable hook) {
    try {
      hook.run();
    } catch (RuntimeException e) {
      LOG.warn("Cancel hook of request {} failed", requestId, e);
    }
  }
}
