package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.LogLevel;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.ServerInfo;
import dev.skillport.mcp.SessionListener;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A tiny application on the protocol core for transport tests: an {@code echo} tool that reports
 * progress and a log entry before answering, plus the conformance suite's progress, logging and
 * sampling tools (not listed; called by name).
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

  private static JsonNode call(dev.skillport.mcp.RequestContext ctx, JsonNode params)
      throws McpException {
    String name = params.path("name").asText();
    switch (name) {
      case "test_tool_with_progress" -> {
        for (int step = 0; step <= 100; step += 50) {
          ctx.progress(step, 100.0, "step " + step);
          pause();
        }
        return text("progress done");
      }
      case "test_tool_with_logging" -> {
        for (int i = 1; i <= 3; i++) {
          ctx.log(LogLevel.INFO, "conformance", "log entry " + i);
          pause();
        }
        return text("logging done");
      }
      case "test_sampling" -> {
        ObjectNode request = JSON.createObjectNode();
        ObjectNode message = request.putArray("messages").addObject();
        message.put("role", "user");
        message
            .putObject("content")
            .put("type", "text")
            .put("text", params.path("arguments").path("prompt").asText());
        request.put("maxTokens", 100);
        try {
          JsonNode answer =
              ctx.sendRequest("sampling/createMessage", request).get(10, TimeUnit.SECONDS);
          return text("LLM response: " + answer.path("content").path("text").asText());
        } catch (Exception e) {
          throw new McpException(ErrorKind.INTERNAL_ERROR, "sampling failed", null, e);
        }
      }
      case "thread" -> {
        // Not listed: tells a transport test which thread ran the call.
        return text(Thread.currentThread().getName());
      }
      case "echo" -> {}
      default -> throw new McpException(ErrorKind.INVALID_PARAMS, "Unknown tool: " + name);
    }
    String text = params.path("arguments").path("text").asText("");
    ctx.progress(1, 2.0, "halfway");
    ctx.log(LogLevel.INFO, "echo", "echoing " + text.length() + " characters");
    ctx.progress(2, 2.0, "done");
    return text(text);
  }

  private static JsonNode text(String text) {
    ObjectNode result = JSON.createObjectNode();
    result.putArray("content").addObject().put("type", "text").put("text", text);
    result.put("isError", false);
    return result;
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
