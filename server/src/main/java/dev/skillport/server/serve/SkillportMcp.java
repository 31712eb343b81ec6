package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
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
import dev.skillport.server.app.CallMeta;
import dev.skillport.server.app.ClientReplies;
import dev.skillport.server.app.SessionState;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.app.UnknownToolException;
import java.time.Duration;
import java.util.List;
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
    ObjectNode caps = capabilities();
    features.forEach(f -> f.capabilities(caps));
    McpServer.Builder builder =
        McpServer.builder(info)
            .capabilities(() -> caps.deepCopy())
            .workerThreads(workerThreads)
            .readiness(catalogReady)
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
            .handler("tools/list", (ctx, params) -> listTools(service, ctx, params))
            .handler("tools/call", (ctx, params) -> callTool(service, ctx, params));
    features.forEach(f -> f.register(builder));
    return builder.build();
  }

  /** The application's state of a session, set when the session opened. */
  public static SessionState sessionState(RequestContext ctx) throws McpException {
    return state(ctx);
  }

  private static ObjectNode capabilities() {
    ObjectNode caps = NODES.objectNode();
    caps.putObject("tools").put("listChanged", true);
    caps.putObject("logging");
    return caps;
  }

  /** Async and parent-job hints of a call; job updates go to the session that started it. */
  private static CallMeta jobMeta(RequestContext ctx) {
    McpSession session = ctx.session();
    return CallMeta.fromRequest(
        ctx.meta(), session.id(), update -> session.notify(CallMeta.JOB_UPDATED, update));
  }

  private static SessionState state(RequestContext ctx) throws McpException {
    return ctx.session()
        .attribute(STATE, SessionState.class)
        .orElseThrow(
            () -> new McpException(ErrorKind.INVALID_REQUEST, "session is not initialized"));
  }

  private static JsonNode listTools(SkillportService service, RequestContext ctx, JsonNode params)
      throws McpException {
    JsonNode cursor = params.get("cursor");
    if (cursor != null && !cursor.isNull() && !cursor.isTextual()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "cursor must be a string");
    }
    try {
      return service.listTools(
          state(ctx), cursor == null || cursor.isNull() ? null : cursor.asText());
    } catch (InvalidCursorException e) {
      throw new McpException(ErrorKind.INVALID_PARAMS, e.getMessage());
    }
  }

  private static JsonNode callTool(SkillportService service, RequestContext ctx, JsonNode params)
      throws McpException {
    JsonNode name = params.get("name");
    if (name == null || !name.isTextual() || name.asText().isEmpty()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "tools/call needs a tool name");
    }
    JsonNode args = params.get("arguments");
    if (args != null && !args.isNull() && !args.isObject()) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "arguments must be an object");
    }
    ContextAdapter context = new ContextAdapter(ctx, Thread.currentThread());
    ctx.onCancel(context::interruptCall);
    try {
      return service.callTool(state(ctx), name.asText(), args, context, jobMeta(ctx));
    } catch (UnknownToolException e) {
      ObjectNode data = NODES.objectNode().put("code", e.code()).put("hint", e.hint());
      throw new McpException(ErrorKind.INVALID_PARAMS, e.getMessage(), data);
    } finally {
      context.finish();
    }
  }

  /**
   * Lets tool code report progress, log, see cancellation (its thread is interrupted when the
   * client cancels), ask the client for sampling or elicitation, and end its response stream.
   */
  private static final class ContextAdapter implements ToolContext {
    /** How long a request to the client (often a person answering) may take. */
    private static final Duration CLIENT_TIMEOUT = Duration.ofMinutes(10);

    private final RequestContext ctx;
    private final Thread worker;
    private boolean running = true;

    ContextAdapter(RequestContext ctx, Thread worker) {
      this.ctx = ctx;
      this.worker = worker;
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
    public boolean clientSupports(String name) {
      return ctx.session().clientSupports(name);
    }

    @Override
    public JsonNode request(String method, JsonNode params)
        throws ClientRequestException, InterruptedException {
      return ClientReplies.await(ctx.sendRequest(method, params), method, CLIENT_TIMEOUT);
    }

    @Override
    public void closeStream() {
      ctx.session()
          .attribute(RequestStreams.ATTRIBUTE, RequestStreams.class)
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
