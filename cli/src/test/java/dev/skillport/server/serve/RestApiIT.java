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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST skill API of {@code bin/skillport serve --http} with two callers' tokens: a script tool,
 * a Java tool and an async tool called over {@code /v1}, a job another caller cannot see or cancel,
 * and the audit log and {@code /metrics} showing REST calls beside MCP calls.
 */
class RestApiIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String A = "rest-it-token-of-caller-a";
  private static final String B = "rest-it-token-of-caller-b";

  @TempDir static Path home;
  private static LaunchedServer server;
  private static Path audit;

  @BeforeAll
  static void start() {
    audit = home.resolve("audit.jsonl");
    Path plugins =
        Path.of(System.getProperty("skillport.conformancePlugins", "../samples/target/plugins"));
    server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--auth-token",
            A,
            "--auth-token",
            B,
            "--audit-log",
            audit.toString(),
            "--skills",
            SamplesHttpServer.samples().toString(),
            "--skills",
            SamplesHttpServer.conformance().toString(),
            "--plugins",
            plugins.toAbsolutePath().toString(),
            "--preload",
            "mcp-conformance");
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private record Reply(int status, JsonNode body) {}

  private static HttpResponse<String> raw(String token, String method, String path, String body)
      throws Exception {
    URI uri = server.uri().resolve(path);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer " + token)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static Reply rest(String token, String method, String path, String body)
      throws Exception {
    HttpResponse<String> response = raw(token, method, path, body);
    return new Reply(response.statusCode(), JSON.readTree(response.body()));
  }

  private static String call(String tool, ObjectNode arguments) {
    ObjectNode body = JSON.createObjectNode().put("tool", tool);
    body.set("arguments", arguments);
    return body.toString();
  }

  /** One request made by curl, the client pipelines and farm scripts use: status and body. */
  private static Reply curl(String token, String method, String path, String body)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.addAll(List.of("curl", "-s", "-X", method, "-w", "\n%{http_code}"));
    command.addAll(List.of("-H", "Authorization: Bearer " + token));
    if (body != null) {
      command.addAll(List.of("-H", "Content-Type: application/json", "--data-binary", body));
    }
    command.add(server.uri().resolve(path).toString());
    Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(curl.waitFor()).as(out).isZero();
    int newline = out.lastIndexOf('\n');
    return new Reply(
        Integer.parseInt(out.substring(newline + 1).trim()),
        JSON.readTree(out.substring(0, newline)));
  }

  @Test
  void curlPerOperation_callsAScriptAJavaAndAnAsyncTool() throws Exception {
    Path text = home.resolve("two-lines.txt");
    Files.writeString(text, "one\ntwo\n");
    Reply script =
        curl(
            A,
            "POST",
            "/v1/tools/file-stats__count_lines/call",
            JSON.createObjectNode().put("path", text.toString()).toString());
    assertThat(script.status()).as(script.body().toString()).isEqualTo(200);
    assertThat(script.body().path("structuredContent").path("lines").asInt()).isEqualTo(2);

    Reply java =
        curl(
            A,
            "POST",
            "/v1/call",
            call("mcp-conformance__test_simple_text", JSON.createObjectNode()));
    assertThat(java.status()).as(java.body().toString()).isEqualTo(200);
    assertThat(java.body().path("content").get(0).path("type").asText()).isEqualTo("text");

    Reply queued =
        curl(
            B,
            "POST",
            "/v1/tools/mcp-conformance__slow_compute/call?async=true",
            JSON.createObjectNode().put("seconds", 0.2).toString());
    assertThat(queued.status()).as(queued.body().toString()).isEqualTo(202);
    String job = queued.body().path("structuredContent").path("job_id").asText();
    assertThat(curl(A, "GET", "/v1/jobs/" + job, null).status()).isEqualTo(404);
    Reply status = curl(B, "GET", "/v1/jobs/" + job, null);
    for (int i = 0; i < 100 && !status.body().path("status").asText().equals("completed"); i++) {
      Thread.sleep(100);
      status = curl(B, "GET", "/v1/jobs/" + job, null);
    }
    assertThat(status.status()).isEqualTo(200);
    assertThat(status.body().path("status").asText())
        .as(status.body().toString())
        .isEqualTo("completed");
  }

  @Test
  void scriptJavaAndAsyncTools_overRest_ownedByTheirCaller_auditedAndCountedBesideMcp()
      throws Exception {
    // A script tool (file-stats' count_lines.py).
    Path text = home.resolve("three-lines.txt");
    Files.writeString(text, "one\ntwo\nthree\n");
    Reply script =
        rest(
            A,
            "POST",
            "/v1/call",
            call("file-stats__count_lines", JSON.createObjectNode().put("path", text.toString())));
    assertThat(script.status()).as(script.body().toString()).isEqualTo(200);
    assertThat(script.body().path("structuredContent").path("lines").asInt()).isEqualTo(3);

    // A Java tool, through its own operation of the OpenAPI document.
    JsonNode openApi = rest(A, "GET", "/v1/openapi.json", null).body();
    assertThat(openApi.path("openapi").asText()).isEqualTo("3.1.0");
    assertThat(openApi.path("paths").has("/v1/tools/mcp-conformance__test_simple_text/call"))
        .isTrue();
    Reply java = rest(A, "POST", "/v1/tools/mcp-conformance__test_simple_text/call", "{}");
    assertThat(java.status()).as(java.body().toString()).isEqualTo(200);
    assertThat(java.body().path("isError").asBoolean()).isFalse();
    assertThat(java.body().path("content").get(0).path("type").asText()).isEqualTo("text");

    // An async tool: a job of caller A that caller B cannot see or cancel.
    Reply queued =
        rest(
            A,
            "POST",
            "/v1/call",
            call("mcp-conformance__slow_compute", JSON.createObjectNode().put("seconds", 0.3)));
    assertThat(queued.status()).as(queued.body().toString()).isEqualTo(202);
    String job = queued.body().path("structuredContent").path("job_id").asText();
    Reply seenByB = rest(B, "GET", "/v1/jobs/" + job, null);
    assertThat(seenByB.status()).isEqualTo(404);
    assertThat(seenByB.body().path("code").asText()).isEqualTo("JOB_NOT_FOUND");
    assertThat(rest(B, "DELETE", "/v1/jobs/" + job, null).status()).isEqualTo(404);
    JsonNode status = rest(A, "GET", "/v1/jobs/" + job, null).body();
    for (int i = 0; i < 200 && !status.path("status").asText().equals("completed"); i++) {
      Thread.sleep(50);
      status = rest(A, "GET", "/v1/jobs/" + job, null).body();
    }
    assertThat(status.path("status").asText()).as(status.toString()).isEqualTo("completed");

    // The same Java tool over MCP, in a 2025-11-25 session of caller B.
    String session = McpWire.openSession(server.uri(), B, "rest-it");
    ObjectNode params = JSON.createObjectNode().put("name", "test_simple_text");
    params.putObject("arguments");
    ObjectNode message =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 2).put("method", "tools/call");
    message.set("params", params);
    JsonNode mcp =
        McpWire.parse(
            McpWire.send(
                    McpWire.request(server.uri(), B)
                        .header("Mcp-Session-Id", session)
                        .header("MCP-Protocol-Version", McpWire.LEGACY)
                        .POST(McpWire.body(message))
                        .build())
                .body());
    assertThat(mcp.path("result").path("isError").asBoolean(true)).as(mcp.toString()).isFalse();

    // The audit log: the REST calls marked via rest, the MCP call not, each with its caller.
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(audit)) {
      lines.add(JSON.readTree(line));
    }
    assertThat(lines)
        .anySatisfy(
            l -> {
              assertThat(l.path("tool").asText()).isEqualTo("file-stats__count_lines");
              assertThat(l.path("via").asText()).isEqualTo("rest");
              assertThat(l.path("outcome").asText()).isEqualTo("ok");
            })
        .anySatisfy(
            l -> {
              assertThat(l.path("tool").asText()).isEqualTo("slow_compute (job)");
              assertThat(l.path("via").asText()).isEqualTo("rest");
            })
        .anySatisfy(
            l -> {
              assertThat(l.path("tool").asText()).isEqualTo("test_simple_text");
              assertThat(l.has("via")).isFalse();
            });
    String callerA =
        lines.stream()
            .filter(l -> l.path("tool").asText().equals("file-stats__count_lines"))
            .findFirst()
            .orElseThrow()
            .path("caller")
            .asText();
    String callerB =
        lines.stream()
            .filter(l -> l.path("tool").asText().equals("test_simple_text"))
            .findFirst()
            .orElseThrow()
            .path("caller")
            .asText();
    assertThat(callerA).startsWith("token:").isNotEqualTo(callerB);

    // /metrics: the REST requests beside the MCP requests, and the tool calls of both.
    HttpResponse<String> metrics = raw(A, "GET", "/metrics", null);
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("skillport_rest_requests_total{operation=\"call\",status=\"200\"}")
        .contains("skillport_rest_requests_total{operation=\"call\",status=\"202\"}")
        .contains("skillport_rest_requests_total{operation=\"job\",status=\"404\"}")
        .contains("skillport_mcp_requests_total{era=\"legacy\",method=\"tools/call\"}")
        .contains("skillport_tool_calls_total{outcome=\"ok\",tool=\"file-stats__count_lines\"}")
        .contains("skillport_tool_calls_total{outcome=\"ok\",tool=\"test_simple_text\"}");
  }

  @Test
  void withoutAToken_theRestApiAnswers401() throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(server.uri().resolve("/v1/skills")).GET().build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(JSON.readTree(response.body()).path("code").asText()).isEqualTo("UNAUTHORIZED");
  }
}
