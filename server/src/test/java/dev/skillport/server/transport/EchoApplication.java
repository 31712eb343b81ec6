package dev.skillport.server.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.server.mcp.ErrorKind;
import dev.skillport.server.mcp.LogLevel;
import dev.skillport.server.mcp.McpException;
import dev.skillport.server.mcp.McpServer;
import dev.skillport.server.mcp.McpSession;
import dev.skillport.server.mcp.ServerInfo;
import dev.skillport.server.mcp.SessionListener;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny application on the protocol core for transport tests: one {@code echo} tool that reports
 * progress and a log entry before answering.
 */
final class EchoApplication {
  static final ObjectMapper JSON = new ObjectMapper();

  final List<McpSession> sessions = new CopyOnWriteArrayList<>();
  final McpServer server;

  EchoApplication() {
    this(Clock.systemUTC());
  }

  EchoApplication(Clock clock) {
    server =
        McpServer.builder(new ServerInfo("echo-test", "0.0.1", "Call echo."))
            .clock(clock)
            .workerThreads(4)
            .capabilities(
                () -> {
                  ObjectNode caps = JSON.createObjectNode();
                  caps.putObject("tools").put("listChanged", true);
                  return caps;
                })
            .handler("tools/list", (ctx, params) -> toolList())
            .handler("tools/call", (ctx, params) -> call(ctx, params))
            .sessionListener(
                new SessionListener() {
                  @Override
                  public void sessionOpened(McpSession session) {
                    sessions.add(session);
                  }

                  @Override
                  public void sessionClosed(McpSession session) {
                    sessions.remove(session);
                  }
                })
            .build();
  }

  private static JsonNode toolList() {
    ObjectNode result = JSON.createObjectNode();
    ArrayNode tools = result.putArray("tools");
    ObjectNode echo = tools.addObject();
    echo.put("name", "echo");
    echo.put("description", "Returns its text argument.");
    ObjectNode schema = echo.putObject("inputSchema");
    schema.put("type", "object");
    schema.putObject("properties").putObject("text").put("type", "string");
    schema.putArray("required").add("text");
    return result;
  }

  private static JsonNode call(dev.skillport.server.mcp.RequestContext ctx, JsonNode params)
      throws McpException {
    if (!"echo".equals(params.path("name").asText())) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "Unknown tool: " + params.path("name"));
    }
    String text = params.path("arguments").path("text").asText("");
    ctx.progress(1, 2.0, "halfway");
    ctx.log(LogLevel.INFO, "echo", "echoing " + text.length() + " characters");
    ctx.progress(2, 2.0, "done");
    ObjectNode result = JSON.createObjectNode();
    result.putArray("content").addObject().put("type", "text").put("text", text);
    result.put("isError", false);
    return result;
  }
}
