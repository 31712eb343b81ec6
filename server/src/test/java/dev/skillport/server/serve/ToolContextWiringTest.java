package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.mcp.JsonRpcMessage;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool context Java handlers and scripts get through the MCP binding: sampling and elicitation
 * requests to the client, progress only with a token, cancellation that interrupts or kills.
 */
class ToolContextWiringTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path root;
  private final BlockingQueue<JsonNode> outbound = new LinkedBlockingQueue<>();
  private final CountDownLatch blockStarted = new CountDownLatch(1);
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private SkillportServer server;
  private McpServer mcp;
  private McpSession session;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void start(String clientCapabilities) throws Exception {
    Path skill = Files.createDirectories(root.resolve("ctx-skill"));
    Files.writeString(
        skill.resolve("SKILL.md"),
        """
        ---
        name: ctx-skill
        description: Tools that use the tool context.
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        Context tools.
        """);
    Files.writeString(
        skill.resolve("tools.yaml"),
        """
        tools:
          - {name: ask_model, handler: ctx.sample}
          - {name: ask_user, handler: ctx.elicit}
          - {name: block, handler: ctx.block}
          - {name: count, handler: ctx.count}
          - {name: slow, source_file: scripts/slow.sh}
        """);
    Path script = Files.createDirectories(skill.resolve("scripts")).resolve("slow.sh");
    Files.writeString(script, "#!/bin/sh\necho started > \"$0.pid\"\nsleep 30\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));

    Map<String, ToolHandler> handlers = new LinkedHashMap<>();
    handlers.put(
        "ctx.sample",
        inv -> {
          ObjectNode params = JSON.createObjectNode();
          params.putArray("messages").addObject().put("role", "user");
          params.put("maxTokens", 10);
          try {
            JsonNode answer = inv.context().sample(params);
            return ToolResult.text("model said " + answer.path("content").path("text").asText());
          } catch (ClientRequestException e) {
            return ToolResult.error(e.reason() + ": " + e.getMessage());
          }
        });
    handlers.put(
        "ctx.elicit",
        inv -> {
          try {
            JsonNode answer = inv.context().elicit(JSON.createObjectNode().put("message", "name?"));
            return ToolResult.text("user " + answer.path("action").asText());
          } catch (ClientRequestException e) {
            return ToolResult.error(e.reason() + ": " + e.getMessage());
          }
        });
    handlers.put(
        "ctx.block",
        inv -> {
          blockStarted.countDown();
          try {
            Thread.sleep(30_000);
            return ToolResult.text("slept");
          } catch (InterruptedException e) {
            interrupted.set(true);
            throw e;
          }
        });
    handlers.put(
        "ctx.count",
        inv -> {
          for (int i = 0; i <= 2; i++) {
            inv.context().progress(i, 2.0, null);
          }
          return ToolResult.text("counted");
        });
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(root, Scope.REPO)),
            ServeConfig.of(List.of()).loaderOptions(),
            List.of("ctx-skill"),
            handlers,
            Duration.ofSeconds(60),
            false);
    server = SkillportServer.start(config, "test");
    mcp = server.mcp();
    session = mcp.openSession(outbound::add);
    JsonNode init =
        request(
                1,
                "initialize",
                "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
                    + clientCapabilities
                    + ",\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}")
            .get(5, TimeUnit.SECONDS);
    assertThat(init.has("result")).as(init.toString()).isTrue();
  }

  private CompletableFuture<JsonNode> request(Object id, String method, String params) {
    String idJson = id instanceof String s ? "\"" + s + "\"" : id.toString();
    return send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + idJson
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

  private CompletableFuture<JsonNode> call(int id, String tool, String meta) {
    return request(
        id,
        "tools/call",
        "{\"name\":\""
            + tool
            + "\",\"arguments\":{}"
            + (meta == null ? "" : ",\"_meta\":" + meta)
            + "}");
  }

  private JsonNode nextOutbound() throws InterruptedException {
    JsonNode message = outbound.poll(5, TimeUnit.SECONDS);
    assertThat(message).as("a message from the server").isNotNull();
    return message;
  }

  private static String text(JsonNode response) {
    return response.path("result").path("content").get(0).path("text").asText();
  }

  @Test
  void sample_clientDeclaredSampling_sendsCreateMessageAndReturnsTheAnswer() throws Exception {
    start("{\"sampling\":{}}");

    CompletableFuture<JsonNode> reply = call(2, "ask_model", null);
    JsonNode ask = nextOutbound();
    assertThat(ask.path("method").asText()).isEqualTo("sampling/createMessage");
    assertThat(ask.path("params").path("maxTokens").asInt()).isEqualTo(10);
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + ask.get("id")
            + ",\"result\":{\"role\":\"assistant\",\"model\":\"m\","
            + "\"content\":{\"type\":\"text\",\"text\":\"hello\"}}}");

    assertThat(text(reply.get(5, TimeUnit.SECONDS))).isEqualTo("model said hello");
  }

  @Test
  void sample_clientWithoutSampling_failsClearlyWithoutAskingTheClient() throws Exception {
    start("{\"elicitation\":{}}");

    JsonNode reply = call(2, "ask_model", null).get(5, TimeUnit.SECONDS);

    assertThat(reply.path("result").path("isError").asBoolean()).isTrue();
    assertThat(text(reply)).startsWith("UNSUPPORTED: ").contains("'sampling' capability");
    assertThat(outbound).isEmpty();
  }

  @Test
  void elicit_clientAnswersWithError_failsWithReasonFailed() throws Exception {
    start("{\"elicitation\":{}}");

    CompletableFuture<JsonNode> reply = call(2, "ask_user", null);
    JsonNode ask = nextOutbound();
    assertThat(ask.path("method").asText()).isEqualTo("elicitation/create");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + ask.get("id")
            + ",\"error\":{\"code\":-1,\"message\":\"declined by policy\"}}");

    JsonNode result = reply.get(5, TimeUnit.SECONDS);
    assertThat(text(result)).startsWith("FAILED: ").contains("declined by policy");
  }

  @Test
  void cancelled_javaHandler_threadIsInterrupted() throws Exception {
    start("{}");

    CompletableFuture<JsonNode> reply = call(2, "block", null);
    assertThat(blockStarted.await(5, TimeUnit.SECONDS)).isTrue();
    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
            + "\"params\":{\"requestId\":2,\"reason\":\"stop\"}}");

    assertThat(reply.get(5, TimeUnit.SECONDS)).as("no response for a cancelled call").isNull();
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilTrue(interrupted);
  }

  @Test
  void cancelled_script_processIsKilled() throws Exception {
    start("{}");
    Path marker = root.resolve("ctx-skill/scripts/slow.sh.pid");

    CompletableFuture<JsonNode> reply = call(3, "slow", null);
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> Files.exists(marker));
    long sleepers = countSleepers();
    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
            + "\"params\":{\"requestId\":3}}");

    assertThat(reply.get(5, TimeUnit.SECONDS)).isNull();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> countSleepers() < sleepers);
  }

  @Test
  void progress_withNumericToken_sentInOrder_withoutToken_notSent() throws Exception {
    start("{}");

    JsonNode plain = call(2, "count", null).get(5, TimeUnit.SECONDS);
    assertThat(text(plain)).isEqualTo("counted");
    assertThat(outbound).isEmpty();

    call(3, "count", "{\"progressToken\":42}").get(5, TimeUnit.SECONDS);
    assertThat(outbound)
        .extracting(m -> m.path("params").path("progress").asInt())
        .containsExactly(0, 1, 2);
    assertThat(outbound)
        .allSatisfy(m -> assertThat(m.path("params").path("progressToken").asInt()).isEqualTo(42));
  }

  /** Live {@code sleep 30} processes that are descendants of this JVM. */
  private static long countSleepers() {
    return ProcessHandle.current()
        .descendants()
        .filter(p -> p.isAlive() && p.info().commandLine().orElse("").contains("sleep 30"))
        .count();
  }
}
