package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;

/**
 * The gateway's MCP surface, both protocol eras on one {@link McpServer}: {@code tools/list} is the
 * gateway's five tools (bounded, whatever the instances hold) and {@code tools/call} runs them.
 */
public final class GatewayMcp {
  private static final ObjectMapper JSON = new ObjectMapper();

  static final String INSTRUCTIONS =
      "This is a Skillport gateway: one endpoint over every Skillport instance of this"
          + " workstation. Find skills with search, read one with describe or load_skill, run its"
          + " tools with call (by the qualified name instance/skill__tool that search and"
          + " describe give).";

  private GatewayMcp() {}

  /** The MCP server of {@code gateway}, reporting {@code version}. */
  public static McpServer build(Gateway gateway, String version) {
    GatewayTools tools = new GatewayTools(gateway);
    ObjectNode list = JSON.createObjectNode();
    ArrayNode listed = list.putArray("tools");
    for (GatewayTools.Definition d : GatewayTools.definitions()) {
      ObjectNode t = listed.addObject();
      t.put("name", d.name());
      t.put("description", d.description());
      t.set("inputSchema", d.inputSchema());
    }
    return McpServer.builder(new ServerInfo("skillport-gateway", version, INSTRUCTIONS))
        .capabilities(era -> JSON.createObjectNode().set("tools", JSON.createObjectNode()))
        .quickHandler("tools/list", (ctx, params) -> list.deepCopy())
        .handler("tools/call", (ctx, params) -> call(tools, ctx, params))
        .build();
  }

  private static JsonNode call(GatewayTools tools, RequestContext ctx, JsonNode params)
      throws McpException {
    String name = params.path("name").asText("");
    JsonNode args = params.path("arguments");
    if (!args.isObject()) {
      args = JSON.createObjectNode();
    }
    InstanceClient.ProgressSink progress = ctx.progressToken().isPresent() ? ctx::progress : null;
    GatewayTools.Answer answer;
    try {
      answer = tools.call(name, args, progress);
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
      result.remove("ttlMs");
      result.remove("cacheScope");
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
}
