package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.LaunchedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad 2026-07-28 input against {@code bin/skillport serve --http} with two callers' tokens: a
 * missing {@code _meta}, an {@code Mcp-Method} that disagrees with the body, an unknown protocol
 * version, a tampered {@code requestState}, another caller's task id and a guessed one. Each is a
 * clear JSON-RPC error carrying the request's id, and the server keeps serving.
 */
class ModernBadInputIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ALICE = "alice-token-0123456789";
  private static final String BOB = "bob-token-9876543210";

  @TempDir static Path home;
  @TempDir static Path skills;
  private static LaunchedServer server;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final AtomicInteger IDS = new AtomicInteger(100);

  @BeforeAll
  static void start() throws Exception {
    FlowKit.writeTo(skills);
    server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--plugins",
            FlowKit.plugins().toString(),
            "--tool-listing",
            "all",
            "--auth-token",
            ALICE,
            "--auth-token",
            BOB);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  record Reply(int status, JsonNode body) {
    int code() {
      return body.at("/error/code").asInt();
    }

    String message() {
      return body.at("/error/message").asText();
    }
  }

  private static ObjectNode meta(String version, String capabilities) throws Exception {
    ObjectNode meta = JSON.createObjectNode();
    meta.put("io.modelcontextprotocol/protocolVersion", version);
    meta.set("io.modelcontextprotocol/clientCapabilities", JSON.readTree(capabilities));
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "bad-input")
        .put("version", "1");
    return meta;
  }

  /** Posts {@code params} as {@code method} with {@code headers} (the token's caller). */
  private static Reply post(
      String token, String method, ObjectNode params, Map<String, String> headers, int id)
      throws Exception {
    ObjectNode message =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    message.set("params", params);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.uri())
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    headers.forEach(b::header);
    HttpResponse<String> response =
        HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    String text = response.body().strip();
    JsonNode body = JSON.createObjectNode();
    if (text.startsWith("{")) {
      body = JSON.readTree(text);
    } else {
      for (String line : text.split("\n")) {
        if (line.startsWith("data:")) {
          JsonNode node = JSON.readTree(line.substring(5).strip());
          if (node.has("result") || node.has("error")) {
            body = node;
          }
        }
      }
    }
    return new Reply(response.statusCode(), body);
  }

  /** A well-formed 2026-07-28 request. */
  private static Reply modern(String token, String method, ObjectNode params, String caps)
      throws Exception {
    params.set("_meta", meta("2026-07-28", caps));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("MCP-Protocol-Version", "2026-07-28");
    headers.put("Mcp-Method", method);
    String name =
        params.path("name").isTextual()
            ? params.get("name").asText()
            : params.path("taskId").asText(null);
    if (name != null) {
      headers.put("Mcp-Name", name);
    }
    return post(token, method, params, headers, IDS.incrementAndGet());
  }

  private static void assertStillServing() throws Exception {
    Reply list = modern(ALICE, "tools/list", JSON.createObjectNode(), "{}");
    assertThat(list.body().at("/result/tools").size()).isPositive();
    assertThat(server.isAlive()).isTrue();
  }

  @Test
  void missingMeta_isInvalidParamsWithItsId() throws Exception {
    Reply reply =
        post(
            ALICE,
            "tools/list",
            JSON.createObjectNode(),
            Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"),
            7001);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.code()).isEqualTo(-32602);
    assertThat(reply.message()).contains("_meta");
    assertThat(reply.body().path("id").asInt()).isEqualTo(7001);
    assertStillServing();
  }

  @Test
  void mcpMethodThatDisagreesWithTheBody_isHeaderMismatch() throws Exception {
    ObjectNode params = JSON.createObjectNode();
    params.set("_meta", meta("2026-07-28", "{}"));
    Reply reply =
        post(
            ALICE,
            "tools/list",
            params,
            Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "prompts/list"),
            7002);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.code()).isEqualTo(-32020);
    assertThat(reply.message()).containsIgnoringCase("Mcp-Method");
    assertThat(reply.body().path("id").asInt()).isEqualTo(7002);
    assertStillServing();
  }

  @Test
  void unknownVersion_isUnsupportedProtocolVersionNamingTheSupportedOnes() throws Exception {
    ObjectNode params = JSON.createObjectNode();
    params.set("_meta", meta("2099-01-01", "{}"));
    Reply reply =
        post(
            ALICE,
            "tools/list",
            params,
            Map.of("MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "tools/list"),
            7003);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.code()).isEqualTo(-32022);
    assertThat(reply.body().at("/error/data/supported").toString()).contains("2026-07-28");
    assertThat(reply.body().path("id").asInt()).isEqualTo(7003);
    assertStillServing();
  }

  @Test
  void tamperedRequestState_isRefused_theRealOneCompletes() throws Exception {
    String caps = "{\"elicitation\":{\"form\":{}}}";
    ObjectNode call = JSON.createObjectNode().put("name", "ask_name");
    call.putObject("arguments");
    JsonNode asked = modern(ALICE, "tools/call", call.deepCopy(), caps).body().get("result");
    String state = asked.path("requestState").asText();
    String key = asked.path("inputRequests").fieldNames().next();
    ObjectNode retry = call.deepCopy();
    retry
        .putObject("inputResponses")
        .putObject(key)
        .put("action", "accept")
        .putObject("content")
        .put("name", "Ada");
    char last = state.charAt(state.length() - 1);
    ObjectNode tampered =
        retry
            .deepCopy()
            .put(
                "requestState", state.substring(0, state.length() - 1) + (last == 'A' ? 'B' : 'A'));
    ObjectNode genuine = retry.deepCopy().put("requestState", state);

    Reply forged = modern(ALICE, "tools/call", tampered, caps);
    Reply otherCaller = modern(BOB, "tools/call", genuine.deepCopy(), caps);
    Reply done = modern(ALICE, "tools/call", genuine, caps);

    assertThat(asked.path("resultType").asText()).isEqualTo("input_required");
    assertThat(forged.code()).isEqualTo(-32602);
    assertThat(forged.message()).contains("requestState");
    assertThat(otherCaller.code()).as("state bound to its caller").isEqualTo(-32602);
    assertThat(done.body().at("/result/structuredContent/message").asText())
        .isEqualTo("Hello, Ada!");
    assertStillServing();
  }

  @Test
  void anotherCallersTask_andAGuessedOne_areUnknownTasks_andUnknownJobs() throws Exception {
    String caps = "{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";
    ObjectNode call = JSON.createObjectNode().put("name", "long_job");
    call.putObject("arguments").put("seconds", 30);
    JsonNode task = modern(ALICE, "tools/call", call, caps).body().get("result");
    String id = task.path("taskId").asText();

    Reply mine = modern(ALICE, "tasks/get", JSON.createObjectNode().put("taskId", id), caps);
    Reply bobs = modern(BOB, "tasks/get", JSON.createObjectNode().put("taskId", id), caps);
    Reply bobCancels = modern(BOB, "tasks/cancel", JSON.createObjectNode().put("taskId", id), caps);
    Reply guessed =
        modern(
            ALICE,
            "tasks/get",
            JSON.createObjectNode().put("taskId", "00000000-0000-4000-8000-000000000000"),
            caps);
    ObjectNode bobsJobCall = JSON.createObjectNode().put("name", "jobs_get_status");
    bobsJobCall.putObject("arguments").put("job_id", id);
    Reply bobsJob = modern(BOB, "tools/call", bobsJobCall, caps);
    ObjectNode bobsJobCancel = JSON.createObjectNode().put("name", "jobs_cancel");
    bobsJobCancel.putObject("arguments").put("job_id", id);
    Reply bobsCancelTool = modern(BOB, "tools/call", bobsJobCancel, caps);
    Reply stillMine = modern(ALICE, "tasks/get", JSON.createObjectNode().put("taskId", id), caps);
    modern(ALICE, "tasks/cancel", JSON.createObjectNode().put("taskId", id), caps);

    assertThat(task.path("resultType").asText()).isEqualTo("task");
    assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    assertThat(mine.body().at("/result/taskId").asText()).isEqualTo(id);
    assertThat(bobs.code()).isEqualTo(-32602);
    assertThat(bobs.message()).contains("Unknown task");
    assertThat(bobCancels.code()).isEqualTo(-32602);
    assertThat(guessed.code()).isEqualTo(-32602);
    assertThat(bobsJob.body().at("/result/structuredContent/code").asText())
        .isEqualTo("JOB_NOT_FOUND");
    assertThat(bobsCancelTool.body().at("/result/structuredContent/code").asText())
        .isEqualTo("JOB_NOT_FOUND");
    assertThat(stillMine.body().at("/result/status").asText())
        .as("Bob's cancel did not reach it")
        .isEqualTo("working");
    assertStillServing();
  }

  @Test
  void wrongToken_isRefusedBeforeAnything() throws Exception {
    Reply reply = modern("not-a-token", "tools/list", JSON.createObjectNode(), "{}");

    assertThat(reply.status()).isEqualTo(401);
    assertThat(URI.create(server.uri().toString()).getHost()).isEqualTo("127.0.0.1");
    assertStillServing();
  }
}
