package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ClientRequest;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.api.tool.ToolWork;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.LogLevel;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import dev.skillport.mcp.SessionListener;
import dev.skillport.mcp.transport.RequestStreams;
import dev.skillport.registry.InvalidCursorException;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CallOutcome;
import dev.skillport.runtime.CapabilityRequiredException;
import dev.skillport.runtime.ClientReplies;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.ToolCalls;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.core.CoreTools;
import dev.skillport.runtime.jobs.IdempotencyKey;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.StoreUnavailableException;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.app.TaskView;
import dev.skillport.server.rounds.InputRound;
import dev.skillport.web.CatalogApp;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Binds the application ({@link SkillportService}) to the MCP protocol layer. */
public final class SkillportMcp {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String STATE = SessionState.class.getName();

  private SkillportMcp() {}

  /**
   * An MCP server whose tools come from {@code service}, plus the given features (prompts,
   * resources, …), each adding its capabilities and handlers.
   */
  public static McpServer create(
      SkillportService service, ServerInfo info, int workerThreads, List<McpFeature> features) {
    return create(service, info, workerThreads, features, CompletableFuture.completedFuture(null));
  }

  /**
   * Like {@link #create(SkillportService, ServerInfo, int, List)}, for a service whose first
   * catalog is still loading: sessions open, and requests run, once {@code catalogReady} completes.
   */
  public static McpServer create(
      SkillportService service,
      ServerInfo info,
      int workerThreads,
      List<McpFeature> features,
      CompletableFuture<?> catalogReady) {
    return create(service, info, workerThreads, features, catalogReady, null);
  }

  /**
   * Like {@link #create(SkillportService, ServerInfo, int, List, CompletableFuture)}, with the
   * catalog's MCP App: its tool is listed first and answered for clients that declare the MCP Apps
   * extension, and unknown to the others.
   */
  public static McpServer create(
      SkillportService service,
      ServerInfo info,
      int workerThreads,
      List<McpFeature> features,
      CompletableFuture<?> catalogReady,
      CatalogApp app) {
    ObjectNode caps = capabilities();
    ParamHeaders paramHeaders = new ParamHeaders();
    features.forEach(f -> f.capabilities(caps));
    ObjectNode modernCaps = caps.deepCopy();
    features.forEach(f -> f.modernCapabilities(modernCaps));
    McpServer.Builder builder =
        McpServer.builder(info)
            .capabilities(era -> era == Era.MODERN ? modernCaps.deepCopy() : caps.deepCopy())
            .workerThreads(workerThreads)
            .readiness(catalogReady)
            // A session's call that loads or unloads skills, or switches a group, is answered
            // before its later requests start: a call sent right behind it finds its tools.
            .changesListing(
                request ->
                    "tools/call".equals(request.method())
                        && CoreTools.LISTING_CHANGES.contains(
                            request.params().path("name").asText()))
            // Nothing leaves on the wire with a secret the server knows.
            .outboundFilter(service.redactor()::wire)
            .sessionListener(
                new SessionListener() {
                  @Override
                  public void sessionOpened(McpSession session) {
                    SessionState state =
                        service.openSession(method -> session.notify(method, NODES.objectNode()));
                    session.attributes().put(STATE, state);
                  }

                  @Override
                  public void sessionClosed(McpSession session) {
                    session.attribute(STATE, SessionState.class).ifPresent(service::closeSession);
                  }
                })
            // A page of the listing is read from the catalog snapshot: no reason to wait for a
            // worker.
            .quickHandler("tools/list", (ctx, params) -> listTools(service, app, ctx, params))
            .handler(
                "tools/call", (ctx, params) -> callTool(service, app, paramHeaders, ctx, params));
    features.forEach(f -> f.register(builder));
    McpServer server = builder.build();
    // Skills changing on disk reach the stateless era's listen streams too.
    service.onCatalogChanged(
        () -> {
          server.changes().toolsListChanged();
          server.changes().promptsListChanged();
          server.changes().resourcesListChanged();
        });
    return server;
  }

  /**
   * The application's state of a request: its session's, set when the session opened, or the
   * stateless era's shared one.
   */
  public static SessionState sessionState(SkillportService service, RequestContext ctx)
      throws McpException {
    return state(service, ctx);
  }

  private static ObjectNode capabilities() {
    ObjectNode caps = NODES.objectNode();
    caps.putObject("tools").put("listChanged", true);
    caps.putObject("logging");
    return caps;
  }

  /**
   * Async and parent-job hints of a call, its caller and trace context; job updates go to the
   * session that started the job (a stateless caller polls).
   */
  private static CallMeta jobMeta(RequestContext ctx) throws McpException {
    String principal = ctx.caller().principal().orElse(null);
    String trace = ctx.traceparent().orElse(null);
    String key = idempotencyKey(ctx);
    McpSession session = ctx.session().orElse(null);
    if (session == null) {
      return CallMeta.fromRequest(ctx.meta(), null, update -> {})
          .withCaller(principal, trace)
          .statelessly(ctx.clientSupportsExtension(TaskView.EXTENSION), ctx::clientSupports)
          .withIdempotencyKey(key);
    }
    return CallMeta.fromRequest(
            ctx.meta(), session.id(), update -> session.notify(CallMeta.JOB_UPDATED, update))
        .withCaller(principal, trace)
        .withIdempotencyKey(key);
  }

  /**
   * The HTTP header that carries a call's idempotency key (as {@code _meta.dcc.idempotencyKey}).
   */
  public static final String IDEMPOTENCY_HEADER = "Idempotency-Key";

  /**
   * The call's idempotency key: {@code _meta.dcc.idempotencyKey} or the {@value
   * #IDEMPOTENCY_HEADER} header (both: the same key); null when neither is given.
   */
  private static String idempotencyKey(RequestContext ctx) throws McpException {
    JsonNode inMeta = CallMeta.idempotencyKeyOf(ctx.meta());
    String header = ctx.caller().header(IDEMPOTENCY_HEADER).orElse(null);
    if (inMeta != null && !inMeta.isNull() && !inMeta.isTextual()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "_meta.dcc.idempotencyKey must be a string");
    }
    String meta = inMeta == null || inMeta.isNull() ? null : inMeta.asText();
    if (meta != null && header != null && !meta.equals(header)) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS,
          "the "
              + IDEMPOTENCY_HEADER
              + " header and _meta.dcc.idempotencyKey differ: send one key");
    }
    String key = meta != null ? meta : header;
    if (key != null && !IdempotencyKey.valid(key)) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS,
          "an idempotency key is 1 to "
              + IdempotencyKey.MAX_LENGTH
              + " visible ASCII characters (a UUID, say)");
    }
    return key;
  }

  private static SessionState state(SkillportService service, RequestContext ctx)
      throws McpException {
    McpSession session = ctx.session().orElse(null);
    if (session == null) {
      return service.statelessState();
    }
    return session
        .attribute(STATE, SessionState.class)
        .orElseThrow(
            () -> new McpException(ErrorKind.INVALID_REQUEST, "session is not initialized"));
  }

  /** Whether the request's client declared the MCP Apps extension and this server has an app. */
  private static boolean showsApp(CatalogApp app, RequestContext ctx) {
    return app != null && ctx.clientSupportsExtension(CatalogApp.EXTENSION);
  }

  private static JsonNode listTools(
      SkillportService service, CatalogApp app, RequestContext ctx, JsonNode params)
      throws McpException {
    JsonNode cursor = params.get("cursor");
    if (cursor != null && !cursor.isNull() && !cursor.isTextual()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "cursor must be a string");
    }
    try {
      boolean firstPage = cursor == null || cursor.isNull();
      return service.listToolsForWire(
          state(service, ctx),
          firstPage ? null : cursor.asText(),
          firstPage && showsApp(app, ctx) ? List.of(app.toolDefinition()) : List.of());
    } catch (InvalidCursorException e) {
      throw new McpException(ErrorKind.INVALID_PARAMS, e.getMessage());
    }
  }

  private static JsonNode callTool(
      SkillportService service,
      CatalogApp app,
      ParamHeaders paramHeaders,
      RequestContext ctx,
      JsonNode params)
      throws McpException {
    JsonNode name = params.get("name");
    if (name == null || !name.isTextual() || name.asText().isEmpty()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "tools/call needs a tool name");
    }
    JsonNode args = params.get("arguments");
    if (args != null && !args.isNull() && !args.isObject()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "arguments must be an object");
    }
    if (name.asText().equals(CatalogApp.TOOL) && showsApp(app, ctx)) {
      long start = System.nanoTime();
      ObjectNode result = app.call(args);
      service
          .calls()
          .record(
              ctx.session().map(McpSession::id).orElse(null),
              ctx.caller().principal().orElse(null),
              CatalogApp.TOOL,
              args == null ? List.of() : List.copyOf(iterable(args.fieldNames())),
              Duration.ofNanos(System.nanoTime() - start),
              "ok");
      return result;
    }
    SessionState state = state(service, ctx);
    InputRound round = null;
    if (ctx.isStateless()) {
      if (ctx.caller().hasHeaders()) {
        JsonNode schema = service.inputSchemaOf(state, name.asText()).orElse(null);
        paramHeaders.check(schema, args, ctx.caller());
      }
      round =
          InputRound.read(
              params, service.signer(), name.asText(), args, ctx.caller().principal().orElse(null));
    }
    CallMeta meta = jobMeta(ctx);
    ContextAdapter context =
        new ContextAdapter(
            ctx,
            Thread.currentThread(),
            round,
            rest -> service.continueAsJob(name.asText(), rest, meta));
    ctx.onCancel(context::interruptCall);
    try {
      CallOutcome outcome = service.call(state, name.asText(), args, context, meta);
      JobRecord continued = context.continued();
      if (continued != null) {
        // The tool handed its rest to a job: the call answers that job, not what the tool returned.
        outcome = new CallOutcome.Queued(continued);
      }
      ObjectNode result = SkillportService.render(outcome, meta);
      if (round == null) {
        return result;
      }
      boolean failed = outcome.ranResult().map(ToolResult::isError).orElse(false);
      return round.finish(result, failed, service.signer());
    } catch (UnknownToolException e) {
      ObjectNode data = NODES.objectNode().put("code", e.code().name()).put("hint", e.hint());
      throw new McpException(ErrorKind.INVALID_PARAMS, e.getMessage(), data);
    } catch (CapabilityRequiredException e) {
      ObjectNode data = NODES.objectNode();
      data.set("requiredCapabilities", e.required());
      throw new McpException(ErrorKind.MISSING_CLIENT_CAPABILITY, e.getMessage(), data);
    } finally {
      context.finish();
    }
  }

  private static List<String> iterable(java.util.Iterator<String> names) {
    List<String> out = new java.util.ArrayList<>();
    names.forEachRemaining(out::add);
    return out;
  }

  /**
   * Lets tool code report progress, log, see cancellation (its thread is interrupted when the
   * client cancels), ask the client for sampling or elicitation, and end its response stream.
   *
   * <p>Asking a session's client sends it a request and waits. Asking a stateless client notes the
   * question in the call's {@link InputRound} and ends the call (reason {@code INPUT_REQUIRED});
   * questions answered in an earlier round get their answer at once. Questions without a key are
   * numbered in the order the call asks them, which is the same in every round of the call.
   */
  private static final class ContextAdapter implements ToolContext {

    private final RequestContext ctx;
    private final Thread worker;
    private final InputRound round;
    private final java.util.function.Function<ToolWork, JobRecord> jobs;
    private int asked;
    private boolean running = true;
    private volatile JobRecord continued;

    ContextAdapter(
        RequestContext ctx,
        Thread worker,
        InputRound round,
        java.util.function.Function<ToolWork, JobRecord> jobs) {
      this.ctx = ctx;
      this.worker = worker;
      this.round = round;
      this.jobs = jobs;
    }

    /** The job the call handed its rest to, or null. */
    JobRecord continued() {
      return continued;
    }

    @Override
    public ToolResult continueAsJob(ToolWork rest) {
      JobRecord job;
      try {
        job = jobs.apply(rest);
      } catch (StoreUnavailableException e) {
        return ToolCalls.storeUnavailable(e);
      }
      continued = job;
      // What the tool sees; the client is answered with the job itself.
      return ToolResult.text("Job " + job.id() + " queued");
    }

    @Override
    public void progress(double progress, Double total, String message) {
      ctx.progress(progress, total, message);
    }

    @Override
    public void log(String level, String message) {
      ctx.log(LogLevel.fromWire(level).orElse(LogLevel.INFO), "tool", message);
    }

    @Override
    public boolean isCancelled() {
      return ctx.cancelled();
    }

    @Override
    public Principal principal() {
      return ctx.caller().identity();
    }

    @Override
    public boolean clientSupports(String name) {
      return ctx.clientSupports(name);
    }

    @Override
    public JsonNode request(String method, JsonNode params)
        throws ClientRequestException, InterruptedException {
      if (round != null) {
        return ask(nextKey(), new ClientRequest(method, params));
      }
      return ClientReplies.await(ctx.sendRequest(method, params), method);
    }

    @Override
    public JsonNode sample(JsonNode params) throws ClientRequestException, InterruptedException {
      if (round != null) {
        return ask(nextKey(), new ClientRequest("sampling/createMessage", params));
      }
      return ToolContext.super.sample(params);
    }

    @Override
    public JsonNode elicit(JsonNode params) throws ClientRequestException, InterruptedException {
      if (round != null) {
        return ask(nextKey(), new ClientRequest("elicitation/create", params));
      }
      return ToolContext.super.elicit(params);
    }

    @Override
    public Map<String, JsonNode> requestAll(Map<String, ClientRequest> requests)
        throws ClientRequestException, InterruptedException {
      if (round == null) {
        return ToolContext.super.requestAll(requests);
      }
      Map<String, JsonNode> out = new LinkedHashMap<>();
      boolean waiting = false;
      for (Map.Entry<String, ClientRequest> e : requests.entrySet()) {
        ClientRequest request = e.getValue();
        if (!clientSupports(request.capability())) {
          round.missing(request.capability());
          throw unsupported(request);
        }
        JsonNode answer = round.answer(e.getKey()).orElse(null);
        if (answer == null) {
          round.ask(e.getKey(), request.method(), request.params());
          waiting = true;
        } else {
          out.put(e.getKey(), answer);
        }
      }
      if (waiting) {
        throw inputRequired();
      }
      return out;
    }

    private JsonNode ask(String key, ClientRequest request) throws ClientRequestException {
      if (!clientSupports(request.capability())) {
        round.missing(request.capability());
        throw unsupported(request);
      }
      JsonNode answer = round.answer(key).orElse(null);
      if (answer != null) {
        return answer;
      }
      round.ask(key, request.method(), request.params());
      throw inputRequired();
    }

    private String nextKey() {
      return "q" + (++asked);
    }

    private static ClientRequestException unsupported(ClientRequest request) {
      return new ClientRequestException(
          ClientRequestException.Reason.UNSUPPORTED,
          request.method()
              + " needs a client that declared the '"
              + request.capability()
              + "' capability");
    }

    private static ClientRequestException inputRequired() {
      return new ClientRequestException(
          ClientRequestException.Reason.INPUT_REQUIRED,
          "the client is asked; the call runs again with its answer");
    }

    @Override
    public void closeStream() {
      ctx.session()
          .flatMap(s -> s.attribute(RequestStreams.ATTRIBUTE, RequestStreams.class))
          .ifPresent(streams -> streams.closeStream(ctx.requestId()));
    }

    /** Interrupts the handler thread, but only while the call is still running on it. */
    synchronized void interruptCall() {
      if (running) {
        worker.interrupt();
      }
    }

    /** Ends the call on its thread, clearing an interrupt a late cancel may have left. */
    void finish() {
      synchronized (this) {
        running = false;
      }
      if (Thread.currentThread() == worker) {
        Thread.interrupted();
      }
    }
  }
}
