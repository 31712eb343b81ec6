package dev.skillport.server.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.mcp.JsonRpcMessage;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The approve step through the composed server: a session that declared elicitation gets an {@code
 * elicitation/create} request on its own channel after workflows_run has answered, and its reply
 * decides the run.
 */
class WorkflowApprovalWiringTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path root;
  private final BlockingQueue<JsonNode> outbound = new LinkedBlockingQueue<>();
  private final AtomicInteger deployed = new AtomicInteger();
  private SkillportServer server;
  private McpServer mcp;
  private McpSession session;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void approveStep_sessionWithElicitation_isAskedOnItsChannelAndTheAnswerDecides()
      throws Exception {
    Path skill = Files.createDirectories(root.resolve("release/workflows"));
    Files.writeString(
        root.resolve("release/SKILL.md"),
        """
        ---
        name: release
        description: Releases after a human says yes
        metadata:
          dcc-mcp:
            tools: tools.yaml
            workflows: workflows/*.workflow.yaml
        ---
        Release.
        """);
    Files.writeString(
        root.resolve("release/tools.yaml"), "tools:\n  - {name: deploy, handler: t.deploy}\n");
    Files.writeString(
        skill.resolve("ship.workflow.yaml"),
        """
        name: ship
        steps:
          - {id: gate, kind: approve, prompt: "Ship version {{inputs.v}}?"}
          - {id: go, kind: tool, tool: deploy}
        """);
    Map<String, ToolHandler> handlers = new LinkedHashMap<>();
    handlers.put("t.deploy", inv -> ToolResult.text("deployed " + deployed.incrementAndGet()));
    server =
        SkillportServer.start(
            new ServeConfig(
                List.of(SkillRoot.of(root, Scope.REPO)),
                ServeConfig.of(List.of()).loaderOptions(),
                List.of("release"),
                handlers,
                Duration.ofSeconds(60),
                false),
            "test");
    mcp = server.mcp();
    session = mcp.openSession(outbound::add);
    request(
            1,
            "initialize",
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"elicitation\":{}},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}")
        .get(5, TimeUnit.SECONDS);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

    JsonNode started =
        request(
                2,
                "tools/call",
                "{\"name\":\"workflows_run\",\"arguments\":{\"name\":\"ship\",\"inputs\":{\"v\":\"1.2\"}}}")
            .get(5, TimeUnit.SECONDS);
    String runId = started.path("result").path("structuredContent").path("run_id").asText();
    JsonNode ask = next("elicitation/create");
    assertThat(ask.path("params").path("message").asText()).isEqualTo("Ship version 1.2?");
    assertThat(deployed.get()).isZero();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + ask.get("id")
            + ",\"result\":{\"action\":\"accept\",\"content\":{\"approved\":true}}}");

    JsonNode done = null;
    for (long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        System.nanoTime() < end; ) {
      JsonNode update = next("notifications/$/dcc.workflowUpdated");
      if (update.path("params").path("run_id").asText().equals(runId)
          && update.path("params").path("status").asText().equals("completed")) {
        done = update;
        break;
      }
    }
    assertThat(done).as("a completed update for the run").isNotNull();
    assertThat(deployed.get()).isEqualTo(1);
  }

  private JsonNode next(String method) throws InterruptedException {
    while (true) {
      JsonNode m = outbound.poll(10, TimeUnit.SECONDS);
      assertThat(m).as("a " + method + " from the server").isNotNull();
      if (m.path("method").asText().equals(method)) {
        return m;
      }
    }
  }

  private CompletableFuture<JsonNode> request(int id, String method, String params) {
    return send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\""
            + method
            + "\",\"params\":"
            + params
            + "}");
  }

  private CompletableFuture<JsonNode> send(String json) {
    JsonRpcMessage message = mcp.parse(json.getBytes(StandardCharsets.UTF_8));
    return mcp.dispatch(session, message, outbound::add);
  }
}
