package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.skillport.mcp.Caller;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.ErrorMapper;
import dev.skillport.mcp.JsonRpcMessage;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.MirroredHeaders;
import dev.skillport.mcp.ModernCall;
import dev.skillport.mcp.ProtocolVersion;
import dev.skillport.mcp.RequestMeta;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes HTTP requests: the health probes, the MCP endpoint (POST, GET, DELETE), then the
 * application's own {@link HttpRoutes}. A POST is served in the modern era when its {@code
 * MCP-Protocol-Version} header names a modern revision (or a revision we do not know, without a
 * session), or, with no such header and no session, when its body declares a protocol version in
 * {@code _meta}; otherwise in the legacy era.
 */
final class McpHttpHandler extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(McpHttpHandler.class);
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String VERSION_HEADER = "MCP-Protocol-Version";
  static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";

  /** Bytes of an oversized body read and thrown away before the connection is dropped instead. */
  private static final long DISCARD_BUDGET = 64L * 1024 * 1024;

  private final McpServer server;
  private final StreamableHttpTransport.Settings settings;
  private final RequestGuard guard;
  private final Supplier<Readiness> ready;
  private final HttpRoutes routes;
  private final Clock clock;
  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private final Set<PostExchange> modernExchanges = ConcurrentHashMap.newKeySet();
  private final ExchangeHost stateless = new StatelessHost();
  private final SessionFairness sessionTable = new SessionFairness(sessions);

  McpHttpHandler(
      McpServer server,
      StreamableHttpTransport.Settings settings,
      RequestGuard guard,
      Supplier<Readiness> ready,
      HttpRoutes routes) {
    this.server = server;
    this.settings = settings;
    this.guard = guard;
    this.ready = ready;
    this.routes = routes;
    this.clock = settings.clock();
  }

  int sessionCount() {
    return sessions.size();
  }

  HttpSession session(String id) {
    return sessions.get(id);
  }

  /**
   * The session {@code request} names, if it exists and the request's caller opened it. Every
   * request on a session (POST, GET stream, Last-Event-ID replay, DELETE) finds it here, so another
   * caller's session id answers exactly as an unknown one.
   */
  private HttpSession ownedSession(Request request, String sessionId) {
    HttpSession session = sessions.get(sessionId);
    return session != null && session.ownedBy(guard.caller(request)) ? session : null;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = Request.getPathInContext(request);
    String method = request.getMethod();
    RequestGuard.Verdict origin = guard.checkOrigin(request);
    if (origin != RequestGuard.Verdict.ALLOWED) {
      refuse(response, callback, origin);
      return true;
    }
    if (path.equals("/healthz") && HttpMethod.GET.is(method)) {
      plainJson(response, callback, 200, "{\"status\":\"ok\"}");
    } else if (path.equals("/readyz") && HttpMethod.GET.is(method)) {
      Readiness now = ready.get();
      plainJson(response, callback, now.httpStatus(), now.body());
    } else if (path.equals(settings.path())) {
      RequestGuard.Verdict verdict = guard.check(request);
      if (verdict == RequestGuard.Verdict.LIMITED) {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, guard.retryAfterSeconds(request));
      }
      if (verdict != RequestGuard.Verdict.ALLOWED) {
        refuse(response, callback, verdict);
      } else if (HttpMethod.POST.is(method)) {
        post(request, response, callback);
      } else if (HttpMethod.GET.is(method)) {
        get(request, response, callback);
      } else if (HttpMethod.DELETE.is(method)) {
        delete(request, response, callback);
      } else {
        response.getHeaders().put(HttpHeader.ALLOW, "GET, POST, DELETE");
        unread(request, response, callback, 405, "Method not allowed");
      }
    } else if (!routed(request, response, callback)) {
      unread(request, response, callback, 404, "Not found");
    }
    return true;
  }

  /** Offers the request to the application's routes; false when none serves its path. */
  private boolean routed(Request request, Response response, Callback callback) {
    if (routes == null) {
      return false;
    }
    try {
      return routes.handle(request, response, callback, guard);
    } catch (RuntimeException e) {
      LOG.error("Unexpected failure serving {}", Request.getPathInContext(request), e);
      if (!response.isCommitted()) {
        Response.writeError(request, response, callback, 500);
      } else {
        callback.failed(e);
      }
      return true;
    }
  }

  private void post(Request request, Response response, Callback callback) {
    if (!MediaTypes.isJson(request.getHeaders().get(HttpHeader.CONTENT_TYPE))) {
      unread(request, response, callback, 415, "Content-Type must be application/json");
      return;
    }
    if (!MediaTypes.acceptsJsonAndEventStream(request.getHeaders().get(HttpHeader.ACCEPT))) {
      unread(
          request,
          response,
          callback,
          406,
          "Accept must list both application/json and text/event-stream");
      return;
    }
    long length = request.getLength();
    if (length > settings.maxBodyBytes()) {
      tooLarge(request, response, callback);
      return;
    }
    // Reads without holding a thread while waiting, and fails as soon as the limit is passed.
    Content.Source.asByteArrayAsync(
        request,
        settings.maxBodyBytes(),
        Promise.Invocable.from(
            Invocable.InvocationType.BLOCKING,
            (byte[] body, Throwable failure) -> {
              if (failure != null) {
                LOG.debug("Request body not read: {}", failure.toString());
                tooLarge(request, response, callback);
                return;
              }
              try {
                onMessage(request, response, callback, body);
              } catch (RuntimeException e) {
                LOG.error("Unexpected failure handling a POST", e);
                Response.writeError(request, response, callback, 500);
              }
            }));
  }

  private void onMessage(Request request, Response response, Callback callback, byte[] body) {
    JsonRpcMessage message = server.parse(body);
    if (message instanceof JsonRpcMessage.Malformed malformed) {
      writeJson(response, callback, 400, malformed.response());
      return;
    }
    if (isModern(request, message)) {
      onModern(request, response, callback, message);
      return;
    }
    JsonNode id = message instanceof JsonRpcMessage.Request r ? r.id() : null;
    String sessionId = request.getHeaders().get(SESSION_HEADER);
    if (sessionId == null) {
      if (message instanceof JsonRpcMessage.Request r && r.isInitialize()) {
        initialize(
            response,
            callback,
            r,
            SessionFairness.client(request),
            new Caller(guard.caller(request), null));
      } else {
        error(response, callback, 400, "Bad request: Mcp-Session-Id header is required", id);
      }
      return;
    }
    HttpSession session = ownedSession(request, sessionId);
    if (session == null) {
      error(response, callback, 404, "Session not found", id);
      return;
    }
    if (!supportedVersion(request, response, callback, id)) {
      return;
    }
    boolean expectsResponse =
        message instanceof JsonRpcMessage.Request
            || (message instanceof JsonRpcMessage.Batch batch && batch.hasRequests());
    if (!expectsResponse) {
      server
          .dispatch(session.mcp(), message, session)
          .whenComplete((ignored, failure) -> accepted(response, callback));
      return;
    }
    boolean acceptsSse = message instanceof JsonRpcMessage.Request && acceptsEventStream(request);
    PostExchange exchange =
        new PostExchange(
            session,
            request,
            response,
            callback,
            acceptsSse,
            settings.maxQueuedEvents(),
            message instanceof JsonRpcMessage.Request r ? r.id() : null);
    session.addExchange(exchange);
    server
        .dispatch(session.mcp(), message, exchange)
        .whenComplete(
            (reply, failure) ->
                exchange.complete(failure == null ? reply : ErrorMapper.toResponse(null, failure)));
  }

  /** Whether a POST belongs to the modern era (see the class comment). */
  private static boolean isModern(Request request, JsonRpcMessage message) {
    String header = request.getHeaders().get(VERSION_HEADER);
    boolean hasSession = request.getHeaders().get(SESSION_HEADER) != null;
    if (header != null) {
      return ProtocolVersion.fromWire(header.trim())
          .map(v -> v.era() == Era.MODERN)
          .orElse(!hasSession);
    }
    if (hasSession) {
      return false;
    }
    JsonNode params;
    if (message instanceof JsonRpcMessage.Request r) {
      if (r.isInitialize()) {
        return false;
      }
      params = r.params();
    } else if (message instanceof JsonRpcMessage.Notification n) {
      params = n.params();
    } else {
      return false;
    }
    return RequestMeta.declaredVersion(params).isPresent();
  }

  /**
   * Serves a modern-era POST: checks the request's {@code _meta} and the headers that mirror its
   * body, then dispatches it without a session. A client that goes away cancels the call.
   */
  private void onModern(
      Request request, Response response, Callback callback, JsonRpcMessage message) {
    if (message instanceof JsonRpcMessage.Notification) {
      // This revision defines no client notifications over HTTP (cancelling is closing a stream).
      accepted(response, callback);
      return;
    }
    if (!(message instanceof JsonRpcMessage.Request rpc)) {
      writeJson(
          response,
          callback,
          400,
          ErrorMapper.toResponse(
              message instanceof JsonRpcMessage.Response r ? r.id() : null,
              new McpException(
                  ErrorKind.INVALID_REQUEST,
                  "A 2026-07-28 POST carries one JSON-RPC request or notification"),
              Era.MODERN));
      return;
    }
    RequestMeta meta;
    try {
      // Checks the structure first: a missing or malformed _meta is reported before the headers.
      RequestMeta.checkStructure(rpc.params());
      String declared = rpc.params().get("_meta").get(RequestMeta.PROTOCOL_VERSION).asText();
      String header = request.getHeaders().get(VERSION_HEADER);
      if (header == null || !header.trim().equals(declared)) {
        throw MirroredHeaders.mismatch(
            header == null
                ? "the " + VERSION_HEADER + " header is required"
                : "Header mismatch: "
                    + VERSION_HEADER
                    + " header value '"
                    + header.trim()
                    + "' does not match body value '"
                    + declared
                    + "'");
      }
      meta = RequestMeta.read(rpc.params());
      checkMirroredHeaders(request, rpc);
    } catch (McpException e) {
      JsonNode error = ErrorMapper.toResponse(rpc.id(), e, Era.MODERN);
      writeJson(response, callback, ErrorMapper.httpStatus(error, true), error);
      return;
    }
    Caller caller = new Caller(guard.caller(request), snapshot(request)::get);
    PostExchange exchange =
        new PostExchange(
            stateless,
            request,
            response,
            callback,
            acceptsEventStream(request),
            settings.maxQueuedEvents(),
            rpc.id());
    modernExchanges.add(exchange);
    ModernCall call = server.dispatchModern(rpc, meta, exchange, caller);
    exchange.onClientGone(() -> call.cancel("the client closed its response stream"));
    request.addFailureListener(failure -> call.cancel("the client closed its response stream"));
    call.response()
        .whenComplete(
            (reply, failure) -> {
              JsonNode out =
                  failure == null ? reply : ErrorMapper.toResponse(rpc.id(), failure, Era.MODERN);
              exchange.complete(out, out == null ? 200 : ErrorMapper.httpStatus(out, false));
            });
  }

  /** {@code Mcp-Method} must name the body's method; {@code Mcp-Name} its name, URI or task. */
  private static void checkMirroredHeaders(Request request, JsonRpcMessage.Request rpc)
      throws McpException {
    String method = request.getHeaders().get(MirroredHeaders.METHOD);
    if (method == null) {
      throw MirroredHeaders.mismatch("the " + MirroredHeaders.METHOD + " header is required");
    }
    MirroredHeaders.check(MirroredHeaders.METHOD, method, TextNode.valueOf(rpc.method()));
    String nameField =
        switch (rpc.method()) {
          case "tools/call", "prompts/get" -> "name";
          case "resources/read" -> "uri";
          case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
          default -> null;
        };
    if (nameField != null) {
      MirroredHeaders.check(
          MirroredHeaders.NAME,
          request.getHeaders().get(MirroredHeaders.NAME),
          rpc.params().get(nameField));
    }
  }

  /**
   * The request's headers as they stay readable after the exchange (a job started by the call, for
   * example): Jetty's own immutable fields, which are what a parsed request already holds (so
   * nothing is copied), or an immutable copy of them. A name is looked up case-insensitively, and a
   * repeated header answers its first value.
   */
  private static HttpFields snapshot(Request request) {
    return request.getHeaders().asImmutable();
  }

  private void initialize(
      Response response,
      Callback callback,
      JsonRpcMessage.Request request,
      String client,
      Caller owner) {
    if (sessions.size() >= settings.maxSessions() && !sessionTable.evictOne()) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "10");
      error(response, callback, 503, "Too many open sessions");
      return;
    }
    HttpSession session =
        new HttpSession(
            server, settings.maxBufferedNotifications(), settings.maxReplayedEvents(), owner);
    // initialize is answered synchronously by the core, so the outcome is known here.
    JsonNode reply = server.dispatch(session.mcp(), request, session).join();
    // Through the server's writer, like every other answer: its outbound filter applies.
    byte[] body = server.write(reply);
    if (!reply.has("result")) {
      server.closeSession(session.mcp());
      plainJson(response, callback, 200, body);
      return;
    }
    sessions.put(session.id(), session);
    sessionTable.opened(session.id(), client);
    response.getHeaders().put(SESSION_HEADER, session.id());
    LOG.debug("HTTP session {} opened ({} open)", session.id(), sessions.size());
    plainJson(response, callback, 200, body);
  }

  private void get(Request request, Response response, Callback callback) {
    if (modernHeader(request)) {
      response.getHeaders().put(HttpHeader.ALLOW, "POST");
      error(response, callback, 405, "2026-07-28 has no GET stream: use subscriptions/listen");
      return;
    }
    if (!acceptsEventStream(request)) {
      error(
          response,
          callback,
          406,
          "This is an MCP endpoint: send MCP messages with POST (Content-Type: application/json);"
              + " a GET opens a session's event stream and needs Accept: text/event-stream");
      return;
    }
    HttpSession session = lookup(request, response, callback);
    if (session == null) {
      return;
    }
    String lastEventId = request.getHeaders().get(LAST_EVENT_ID_HEADER);
    String resumedKey = lastEventId == null ? null : session.streamOf(lastEventId).orElse(null);
    if (resumedKey != null && resumedKey.startsWith("p")) {
      resumePostStream(request, response, callback, session, resumedKey, lastEventId);
      return;
    }
    SseStream[] holder = new SseStream[1];
    SseStream stream =
        new SseStream(
            response,
            callback,
            settings.maxQueuedEvents(),
            () -> session.removeGetStream(holder[0]));
    holder[0] = stream;
    boolean opened =
        session.openGetStream(
            stream,
            settings.maxStreamsPerSession(),
            resumedKey,
            lastEventId,
            key -> {
              SseStream.begin(response);
              // Something goes out at once so the client sees the stream open.
              if (session.primesStreams()) {
                session.prime(stream, key);
              } else {
                stream.comment("stream open");
              }
            });
    if (!opened) {
      error(response, callback, 429, "Too many open streams for this session");
      return;
    }
    request.addFailureListener(stream::abort);
  }

  /**
   * Answers a GET that resumes a POST's event stream: the events the client missed, then the rest
   * of the call if it is still running; the stream ends with the call's result.
   */
  private void resumePostStream(
      Request request,
      Response response,
      Callback callback,
      HttpSession session,
      String streamKey,
      String lastEventId) {
    SseStream stream = new SseStream(response, callback, settings.maxQueuedEvents(), () -> {});
    SseStream.begin(response);
    request.addFailureListener(stream::abort);
    session
        .exchangeOf(streamKey)
        .ifPresentOrElse(
            exchange -> exchange.resume(stream, lastEventId),
            () -> {
              session.replay(stream, streamKey, lastEventId);
              stream.close();
            });
  }

  private void delete(Request request, Response response, Callback callback) {
    if (modernHeader(request)) {
      response.getHeaders().put(HttpHeader.ALLOW, "POST");
      error(response, callback, 405, "2026-07-28 has no sessions to delete");
      return;
    }
    HttpSession session = lookup(request, response, callback);
    if (session == null) {
      return;
    }
    sessions.remove(session.id(), session);
    session.close();
    LOG.debug("HTTP session {} deleted", session.id());
    response.setStatus(200);
    response.write(true, BufferUtil.EMPTY_BUFFER, callback);
  }

  private HttpSession lookup(Request request, Response response, Callback callback) {
    String sessionId = request.getHeaders().get(SESSION_HEADER);
    if (sessionId == null) {
      error(response, callback, 400, "Bad request: Mcp-Session-Id header is required");
      return null;
    }
    HttpSession session = ownedSession(request, sessionId);
    if (session == null) {
      error(response, callback, 404, "Session not found");
      return null;
    }
    return supportedVersion(request, response, callback, null) ? session : null;
  }

  /** Any revision we speak is accepted, even one older than the session's; an absent header too. */
  private static boolean supportedVersion(
      Request request, Response response, Callback callback, JsonNode id) {
    String version = request.getHeaders().get(VERSION_HEADER);
    if (version != null && ProtocolVersion.fromWire(version.trim()).isEmpty()) {
      error(response, callback, 400, "Unsupported MCP-Protocol-Version: " + version, id);
      return false;
    }
    return true;
  }

  private static boolean modernHeader(Request request) {
    String version = request.getHeaders().get(VERSION_HEADER);
    return version != null
        && ProtocolVersion.fromWire(version.trim()).map(v -> v.era() == Era.MODERN).orElse(false);
  }

  /**
   * Closes sessions idle longer than the timeout with no GET stream open, and sends keep-alives.
   */
  void sweep() {
    Instant cutoff = clock.instant().minus(settings.sessionIdleTimeout());
    List<HttpSession> expired = new ArrayList<>();
    for (HttpSession session : sessions.values()) {
      if (session.mcp().lastActivity().isBefore(cutoff) && !session.hasOpenGetStream()) {
        expired.add(session);
      } else {
        session.keepAlive();
      }
    }
    modernExchanges.forEach(PostExchange::keepAlive);
    for (HttpSession session : expired) {
      if (sessions.remove(session.id(), session)) {
        LOG.debug("HTTP session {} expired", session.id());
        session.close();
      }
    }
    sessionTable.forgetClosed();
  }

  void closeAll() {
    // Open listen streams got their graceful end from the server; whatever is left is abandoned.
    List.copyOf(modernExchanges).forEach(PostExchange::abandon);
    for (HttpSession session : List.copyOf(sessions.values())) {
      sessions.remove(session.id(), session);
      session.close();
    }
  }

  private static boolean acceptsEventStream(Request request) {
    String accept = request.getHeaders().get(HttpHeader.ACCEPT);
    return accept != null && accept.toLowerCase(Locale.ROOT).contains("text/event-stream");
  }

  private static void accepted(Response response, Callback callback) {
    response.setStatus(202);
    response.write(true, BufferUtil.EMPTY_BUFFER, callback);
  }

  private static void refuse(Response response, Callback callback, RequestGuard.Verdict verdict) {
    // The body of a refused request is never read. Should it still be arriving when the answer is
    // done, the server drops the connection; saying so keeps a client from sending its next
    // request on a connection that is about to end (it would read no answer at all).
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    switch (verdict) {
      case FORBIDDEN_HOST -> error(response, callback, 403, "Forbidden: Host not allowed");
      case FORBIDDEN_ORIGIN -> error(response, callback, 403, "Forbidden: Origin not allowed");
      case UNAUTHORIZED -> {
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
        error(response, callback, 401, "Unauthorized: a valid token is required");
      }
      case LIMITED ->
          error(response, callback, 429, "Too many wrong tokens: retry after Retry-After seconds");
      case ALLOWED -> throw new IllegalArgumentException("not a refusal");
    }
  }

  /**
   * Answers an error decided from the headers alone, then reads and discards the body (up to a
   * budget). A connection whose request body was left unread when its exchange ended is closed by
   * the server, and a client reusing it for its next request would read no answer at all.
   */
  private static void unread(
      Request request, Response response, Callback callback, int status, String message) {
    error(
        response,
        Callback.from(() -> discard(request, DISCARD_BUDGET, callback), callback::failed),
        status,
        message);
  }

  /**
   * Answers 413 at once, then reads and discards the rest of the body (up to a budget) so that the
   * connection is not reset under a client still sending, which could lose the answer.
   */
  private static void tooLarge(Request request, Response response, Callback callback) {
    response.setStatus(413);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    String body =
        ErrorMapper.toResponse(
                null, new McpException(ErrorKind.INVALID_REQUEST, "Request body too large"))
            .toString();
    response.write(
        true,
        ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)),
        Callback.from(() -> discard(request, DISCARD_BUDGET, callback), callback::failed));
  }

  private static void discard(Request request, long budget, Callback callback) {
    long left = budget;
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        long remaining = left;
        request.demand(() -> discard(request, remaining, callback));
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        callback.failed(chunk.getFailure());
        return;
      }
      left -= chunk.remaining();
      boolean last = chunk.isLast();
      chunk.release();
      if (last) {
        callback.succeeded();
        return;
      }
      if (left <= 0) {
        // A client that keeps sending past the budget loses its connection.
        callback.failed(new IllegalStateException("Oversized request body"));
        return;
      }
    }
  }

  private static void error(Response response, Callback callback, int status, String message) {
    error(response, callback, status, message, null);
  }

  /** Answers with an error response carrying the request's id when it could be read. */
  private static void error(
      Response response, Callback callback, int status, String message, JsonNode id) {
    writeJson(
        response,
        callback,
        status,
        ErrorMapper.toResponse(id, new McpException(ErrorKind.INVALID_REQUEST, message)));
  }

  /**
   * The modern era's side of an exchange: events without ids, nothing replayed, nothing to fall
   * back on.
   */
  private final class StatelessHost implements ExchangeHost {
    private final AtomicLong streams = new AtomicLong();

    @Override
    public byte[] bytes(JsonNode message) {
      return server.write(message);
    }

    @Override
    public void write(JsonNode message, OutputStream out) throws IOException {
      server.writeTo(message, out);
    }

    @Override
    public String newStreamKey(String kind) {
      return kind + streams.incrementAndGet();
    }

    @Override
    public boolean deliver(SseStream stream, String streamKey, String json) {
      return stream.data(json);
    }

    @Override
    public void store(String streamKey, String json) {}

    @Override
    public void prime(SseStream stream, String streamKey) {}

    @Override
    public boolean primesStreams() {
      return false;
    }

    @Override
    public void replay(SseStream stream, String streamKey, String lastEventId) {}

    @Override
    public void fallback(JsonNode message) {
      LOG.debug("No stream for {}; dropped", message.path("method").asText("a message"));
    }

    @Override
    public void removeExchange(PostExchange exchange) {
      modernExchanges.remove(exchange);
    }
  }

  private static void writeJson(Response response, Callback callback, int status, JsonNode body) {
    plainJson(response, callback, status, body.toString());
  }

  private static void plainJson(Response response, Callback callback, int status, String body) {
    plainJson(response, callback, status, body.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes {@code body} as it is: the serializer's array is the response buffer. */
  static void plainJson(Response response, Callback callback, int status, byte[] body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
