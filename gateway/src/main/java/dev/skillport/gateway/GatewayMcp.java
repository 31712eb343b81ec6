package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.LogLevel;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.RequestMeta;
import dev.skillport.mcp.ServerInfo;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The gateway's MCP surface, both protocol eras on one {@link McpServer}: {@code tools/list} is the
 * gateway's five tools (bounded, whatever the instances hold) and {@code tools/call} runs them; the
 * resources and prompts of every instance are listed and read under names that name the instance
 * ({@link GatewayRelay}), and tasks an instance started are read, answered and cancelled through
 * the gateway by the ids it handed out. Every routed request carries the caller's token, client
 * capabilities and log level, relays the progress and log entries the instance streams, and is
 * cancelled on the instance when the caller cancels it.
 */
public final class GatewayMcp {
  private static final ObjectMapper JSON = new ObjectMapper();

  static final String INSTRUCTIONS =
      "This is a Skillport gateway: one endpoint over every Skillport instance of this"
          + " workstation. Find skills with search, read one with describe or load_skill, run its"
          + " tools with call (by the qualified name instance/skill__tool that search and"
          + " describe give).";

  /** How many {@code input_required} rounds a 2025-era call is relayed through at most. */
  static final int MAX_ROUNDS = 8;

  /** How long a 2025-era client may take to answer a relayed elicitation or sampling request. */
  static final long ANSWER_MINUTES = 10;

  private GatewayMcp() {}

  /** The MCP server of {@code gateway}, reporting {@code version}. */
  public static McpServer build(Gateway gateway, String version) {
    GatewayTools tools = new GatewayTools(gateway);
    GatewayRelay relay = new GatewayRelay(gateway);
    ObjectNode list = JSON.createObjectNode();
    ArrayNode listed = list.putArray("tools");
    for (GatewayTools.Definition d : GatewayTools.definitions()) {
      ObjectNode t = listed.addObject();
      t.put("name", d.name());
      t.put("description", d.description());
      t.set("inputSchema", d.inputSchema());
    }
    return McpServer.builder(new ServerInfo("skillport-gateway", version, INSTRUCTIONS))
        .capabilities(GatewayMcp::capabilities)
        .quickHandler("tools/list", (ctx, params) -> list.deepCopy())
        .handler("tools/call", (ctx, params) -> call(tools, ctx, params))
        .handler("resources/list", (ctx, params) -> relay.resources(relay(ctx)))
        .handler("resources/templates/list", (ctx, params) -> relay.templates(relay(ctx)))
        .handler("resources/read", (ctx, params) -> relay.read(params, relay(ctx)))
        .handler("prompts/list", (ctx, params) -> relay.prompts(relay(ctx)))
        .handler("prompts/get", (ctx, params) -> relay.prompt(params, relay(ctx)))
        .handler("tasks/get", (ctx, params) -> relay.task("tasks/get", params, relay(ctx)))
        .handler("tasks/update", (ctx, params) -> relay.task("tasks/update", params, relay(ctx)))
        .handler("tasks/cancel", (ctx, params) -> relay.task("tasks/cancel", params, relay(ctx)))
        .onlyIn(Era.MODERN, "tasks/get", "tasks/update", "tasks/cancel")
        .build();
  }

  private static JsonNode capabilities(Era era) {
    ObjectNode c = JSON.createObjectNode();
    c.putObject("tools");
    c.putObject("resources");
    c.putObject("prompts");
    c.putObject("logging");
    if (era == Era.MODERN) {
      c.putObject("extensions").putObject(GatewayRelay.TASKS);
    }
    return c;
  }

  /**
   * What travels from the gateway's caller to the instance: its {@code Authorization} (or {@code
   * X-API-Key}) header, its client capabilities, its log level; progress and log entries come back
   * to it, and its cancellation closes the routed request.
   */
  static InstanceClient.Relay relay(RequestContext ctx) {
    String auth =
        ctx.caller()
            .header("Authorization")
            .or(() -> ctx.caller().header("X-API-Key").map(k -> "Bearer " + k.strip()))
            .orElse(null);
    String level =
        ctx.era() == Era.MODERN
            ? ctx.modernMeta().map(RequestMeta::logLevel).map(LogLevel::wire).orElse(null)
            : ctx.session().map(McpSession::logLevel).map(LogLevel::wire).orElse(null);
    InstanceClient.ProgressSink progress = ctx.progressToken().isPresent() ? ctx::progress : null;
    InstanceClient.LogSink log =
        p ->
            LogLevel.fromWire(p.path("level").asText(""))
                .ifPresent(l -> ctx.log(l, p.path("logger").asText(null), p.get("data")));
    return new InstanceClient.Relay(
        auth, ctx.clientCapabilities(), level, progress, log, ctx::onCancel);
  }

  private static JsonNode call(GatewayTools tools, RequestContext ctx, JsonNode params)
      throws McpException {
    String name = params.path("name").asText("");
    JsonNode args = params.path("arguments");
    if (!args.isObject()) {
      args = JSON.createObjectNode();
    }
    InstanceClient.Relay relay = relay(ctx);
    GatewayTools.Answer answer;
    try {
      answer = tools.call(name, args, params, relay);
      // A 2025-era client cannot answer an input_required result: the gateway asks it the
      // instance's questions as requests of its session and sends the answers on.
      for (int round = 0;
          round < MAX_ROUNDS
              && ctx.era() == Era.LEGACY
              && answer != null
              && answer.passThrough() != null
              && "input_required".equals(answer.passThrough().path("resultType").asText());
          round++) {
        ObjectNode retry = JSON.createObjectNode();
        retry.set("requestState", answer.passThrough().get("requestState"));
        retry.set("inputResponses", ask(ctx, answer.passThrough().path("inputRequests")));
        answer = tools.call(name, args, retry, relay);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new McpException(ErrorKind.INTERNAL_ERROR, "the gateway is stopping");
    }
    if (answer == null) {
      throw new McpException(
          ErrorKind.INVALID_PARAMS,
          "unknown tool "
              + name
              + ": the gateway serves search, describe, load_skill, call and"
              + " list_instances",
          JSON.createObjectNode().put("code", "ACTION_NOT_FOUND"));
    }
    if (answer.passThrough() != null) {
      ObjectNode result = answer.passThrough().deepCopy();
      if (!"task".equals(result.path("resultType").asText())) {
        // A result's caching hints are the instance's, not the gateway's (a task's ttlMs stays).
        result.remove("ttlMs");
        result.remove("cacheScope");
      }
      if (ctx.era() == Era.LEGACY) {
        result.remove("resultType");
      }
      return result;
    }
    ObjectNode result = JSON.createObjectNode();
    result
        .putArray("content")
        .addObject()
        .put("type", "text")
        .put("text", answer.structured().toPrettyString());
    result.set("structuredContent", answer.structured());
    result.put("isError", answer.isError());
    return result;
  }

  /** Asks a 2025-era client each of an instance's input requests; the answers by key. */
  private static ObjectNode ask(RequestContext ctx, JsonNode requests)
      throws McpException, InterruptedException {
    ObjectNode answers = JSON.createObjectNode();
    for (var e : requests.properties()) {
      String method = e.getValue().path("method").asText("");
      try {
        answers.set(
            e.getKey(),
            ctx.sendRequest(method, e.getValue().path("params"))
                .get(ANSWER_MINUTES, TimeUnit.MINUTES));
      } catch (ExecutionException | TimeoutException ex) {
        throw new McpException(
            ErrorKind.INTERNAL_ERROR,
            "the client did not answer the instance's " + method + ": " + ex.getMessage());
      }
    }
    return answers;
  }
}
