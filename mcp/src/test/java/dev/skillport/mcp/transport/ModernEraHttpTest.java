package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.LogLevel;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The 2026-07-28 era over Streamable HTTP, beside the legacy era on the same endpoint: per-request
 * {@code _meta} and mirrored headers checked, the modern error codes and HTTP statuses, results
 * marked and cache hints added, logs only on request, no GET stream, listen streams, and a client
 * that closes its response stream cancelling its call.
 */
class ModernEraHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String VERSION = "2026-07-28";

  private final AtomicInteger cancelled = new AtomicInteger();
  private final CountDownLatch slowStarted = new CountDownLatch(1);
  private McpServer server;
  private StreamableHttpTransport transport;
  private HttpTestClient legacy;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server =
        McpServer.builder(new ServerInfo("modern-test", "9.9", "Be nice."))
            .workerThreads(4)
            .capabilities(
                () -> {
                  ObjectNode caps = JSON.createObjectNode();
                  caps.putObject("tools").put("listChanged", true);
                  caps.putObject("prompts").put("listChanged", true);
                  return caps;
                })
            .cacheTtlMillis(1234)
            .handler("tools/list", (ctx, params) -> tools())
            .handler("tools/call", this::call)
            .handler("legacy/only", (ctx, params) -> JSON.createObjectNode())
            .onlyIn(Era.LEGACY, "legacy/only")
            .build();
    transport =
        StreamableHttpTransport.builder(server)
            .host("127.0.0.1")
            .port(0)
            .keepAliveInterval(Duration.ofMillis(200))
            .build();
    transport.start();
    legacy = new HttpTestClient(transport.uri());
  }

  @AfterEach
  void stop() {
    transport.close();
    server.close();
  }

  private JsonNode tools() {
    ObjectNode result = JSON.createObjectNode();
    result.putArray("tools").addObject().put("name", "echo");
    return result;
  }

  private JsonNode call(RequestContext ctx, JsonNode params) {
    String name = params.path("name").asText();
    if (name.equals("slow")) {
      ctx.onCancel(cancelled::incrementAndGet);
      ctx.progress(1, null, "started");
      slowStarted.countDown();
      while (!ctx.cancelled()) {
        pause();
      }
      return JSON.createObjectNode();
    }
    ctx.log(LogLevel.DEBUG, "t", "debug line");
    ctx.log(LogLevel.WARNING, "t", "warning line");
    ObjectNode result = JSON.createObjectNode();
    result
        .putArray("content")
        .addObject()
        .put("type", "text")
        .put("text", ctx.era() + " " + ctx.protocolVersion().wire());
    return result;
  }

  private static ObjectNode meta() {
    ObjectNode meta = JSON.createObjectNode();
    meta.put("io.modelcontextprotocol/protocolVersion", VERSION);
    meta.putObject("io.modelcontextprotocol/clientCapabilities");
    meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "t").put("version", "1");
    return meta;
  }

  private static String request(Object id, String method, ObjectNode params) {
    ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0");
    message.set("id", JSON.valueToTree(id));
    message.put("method", method);
    message.set("params", params);
    return message.toString();
  }

  private static ObjectNode params(String name) {
    ObjectNode params = JSON.createObjectNode();
    if (name != null) {
      params.put("name", name);
      params.putObject("arguments");
    }
    params.set("_meta", meta());
    return params;
  }

  private HttpResponse<String> post(String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(transport.uri())
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static Map<String, String> headers(String method, String name) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("MCP-Protocol-Version", VERSION);
    h.put("Mcp-Method", method);
    if (name != null) {
      h.put("Mcp-Name", name);
    }
    return h;
  }

  /** The JSON-RPC message of a plain JSON body or the last data line of an event stream. */
  private static JsonNode body(HttpResponse<String> response) throws Exception {
    String text = response.body();
    if (text.startsWith("data:") || text.contains("\ndata:")) {
      String last = null;
      for (String line : text.split("\n")) {
        if (line.startsWith("data:")) {
          last = line.substring(5).trim();
        }
      }
      return JSON.readTree(last);
    }
    return JSON.readTree(text);
  }

  @Test
  void discover_withoutSession_answersVersionsCapabilitiesIdentityAndCacheHints() throws Exception {
    HttpResponse<String> response =
        post(request(1, "server/discover", params(null)), headers("server/discover", null));

    JsonNode result = body(response).path("result");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertThat(result.path("supportedVersions"))
        .extracting(JsonNode::asText)
        .containsExactly("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26");
    assertThat(result.at("/capabilities/tools/listChanged").asBoolean()).isTrue();
    assertThat(result.path("instructions").asText()).isEqualTo("Be nice.");
    assertThat(result.path("resultType").asText()).isEqualTo("complete");
    assertThat(result.at("/_meta/io.modelcontextprotocol~1serverInfo/version").asText())
        .isEqualTo("9.9");
    assertThat(result.path("ttlMs").asLong()).isEqualTo(1234);
    assertThat(result.path("cacheScope").asText()).isEqualTo("public");
  }

  @Test
  void toolsList_carriesResultTypeAndCacheHints_toolsCallDoesNotCache() throws Exception {
    JsonNode list =
        body(post(request(2, "tools/list", params(null)), headers("tools/list", null)))
            .path("result");
    JsonNode call =
        body(post(request(3, "tools/call", params("echo")), headers("tools/call", "echo")))
            .path("result");

    assertThat(list.path("resultType").asText()).isEqualTo("complete");
    assertThat(list.path("ttlMs").asLong()).isEqualTo(1234);
    assertThat(call.path("resultType").asText()).isEqualTo("complete");
    assertThat(call.has("ttlMs")).isFalse();
    assertThat(call.at("/content/0/text").asText()).isEqualTo("MODERN 2026-07-28");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
        "_meta"
      })
  void request_missingRequiredMeta_is400InvalidParamsWithItsId(String missing) throws Exception {
    ObjectNode params = params(null);
    if (missing.equals("_meta")) {
      params.remove("_meta");
    } else {
      ((ObjectNode) params.get("_meta")).remove(missing);
    }

    HttpResponse<String> response =
        post(request(101, "server/discover", params), headers("server/discover", null));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(body(response).path("id").asInt()).isEqualTo(101);
    assertThat(body(response).at("/error/code").asInt()).isEqualTo(-32602);
  }

  @Test
  void request_unsupportedVersion_is400WithTheSupportedList() throws Exception {
    ObjectNode params = params(null);
    ((ObjectNode) params.get("_meta")).put("io.modelcontextprotocol/protocolVersion", "2099-01-01");
    Map<String, String> h = headers("server/discover", null);
    h.put("MCP-Protocol-Version", "2099-01-01");

    HttpResponse<String> response = post(request("u1", "server/discover", params), h);

    JsonNode error = body(response).path("error");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(body(response).path("id").asText()).isEqualTo("u1");
    assertThat(error.path("code").asInt()).isEqualTo(-32022);
    assertThat(error.at("/data/requested").asText()).isEqualTo("2099-01-01");
    assertThat(error.at("/data/supported")).extracting(JsonNode::asText).contains(VERSION);
  }

  @Test
  void headers_thatDisagreeWithTheBody_are400HeaderMismatch() throws Exception {
    Map<String, String> wrongMethod = headers("prompts/list", null);
    Map<String, String> wrongName = headers("tools/call", "other");
    Map<String, String> noName = headers("tools/call", null);
    Map<String, String> wrongVersion = headers("tools/list", null);
    wrongVersion.put("MCP-Protocol-Version", "2025-11-25");
    Map<String, String> base64Name = headers("tools/call", "=?base64?ZWNobw==?=");

    List<HttpResponse<String>> refused = new ArrayList<>();
    refused.add(post(request(1, "tools/list", params(null)), wrongMethod));
    refused.add(post(request(2, "tools/call", params("echo")), wrongName));
    refused.add(post(request(3, "tools/call", params("echo")), noName));
    HttpResponse<String> accepted = post(request(4, "tools/call", params("echo")), base64Name);

    for (HttpResponse<String> response : refused) {
      assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
      assertThat(body(response).at("/error/code").asInt()).isEqualTo(-32020);
      assertThat(body(response).path("id").isIntegralNumber()).isTrue();
    }
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
    assertThat(body(accepted).at("/result/content/0/text").asText()).startsWith("MODERN");
  }

  @Test
  void removedAndUnknownMethods_are404MethodNotFound_legacyOnlyMethodsToo() throws Exception {
    for (String method : List.of("initialize", "ping", "logging/setLevel", "legacy/only", "x/y")) {
      HttpResponse<String> response =
          post(request("m", method, params(null)), headers(method, null));

      assertThat(response.statusCode()).as(method).isEqualTo(404);
      assertThat(body(response).at("/error/code").asInt()).as(method).isEqualTo(-32601);
      assertThat(body(response).path("id").asText()).isEqualTo("m");
    }
  }

  @Test
  void log_onlyWhenTheRequestAsksForALevel_andOnlyAtOrAboveIt() throws Exception {
    HttpResponse<String> silent =
        post(request(1, "tools/call", params("echo")), headers("tools/call", "echo"));
    ObjectNode asking = params("echo");
    ((ObjectNode) asking.get("_meta")).put("io.modelcontextprotocol/logLevel", "warning");
    HttpResponse<String> logged =
        post(request(2, "tools/call", asking), headers("tools/call", "echo"));

    assertThat(silent.body()).doesNotContain("notifications/message");
    assertThat(logged.body()).contains("warning line").doesNotContain("debug line");
    assertThat(logged.body()).doesNotContain("id: ");
  }

  @Test
  void bothEras_onOneServerAtTheSameTime_eachServedItsOwnWay() throws Exception {
    String session = legacy.initialize("2025-11-25");
    HttpResponse<String> old =
        legacy.post(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}",
            session);
    HttpResponse<String> modern =
        post(request(8, "tools/call", params("echo")), headers("tools/call", "echo"));
    HttpResponse<String> noSession =
        legacy.post("{\"jsonrpc\":\"2.0\",\"id\":101,\"method\":\"tools/list\"}", Map.of());

    assertThat(body(old).at("/result/content/0/text").asText()).isEqualTo("LEGACY 2025-11-25");
    assertThat(body(old).at("/result/resultType").isMissingNode()).isTrue();
    assertThat(body(modern).at("/result/content/0/text").asText()).isEqualTo("MODERN 2026-07-28");
    assertThat(noSession.statusCode()).isEqualTo(400);
    assertThat(body(noSession).path("id").asInt()).isEqualTo(101);
  }

  @Test
  void get_withTheModernVersion_is405() throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(transport.uri())
                .header("Accept", "text/event-stream")
                .header("MCP-Protocol-Version", VERSION)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(405);
  }

  @Test
  void closingTheResponseStream_cancelsTheCall() throws Exception {
    ObjectNode params = params("slow");
    ((ObjectNode) params.get("_meta")).put("progressToken", "p1");
    HttpRequest request =
        HttpRequest.newBuilder(transport.uri())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", VERSION)
            .header("Mcp-Method", "tools/call")
            .header("Mcp-Name", "slow")
            .POST(HttpRequest.BodyPublishers.ofString(request(9, "tools/call", params)))
            .build();
    HttpResponse<InputStream> response =
        http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    String first = reader.readLine();
    assertThat(slowStarted.await(10, TimeUnit.SECONDS)).isTrue();

    response.body().close();

    assertThat(first).startsWith("data:").contains("notifications/progress");
    await().atMost(Duration.ofSeconds(20)).until(() -> cancelled.get() == 1);
  }

  @Test
  void listen_acknowledgesFirst_tagsEveryNotification_andSendsOnlyWhatWasAskedFor()
      throws Exception {
    ObjectNode params = params(null);
    params
        .putObject("notifications")
        .put("toolsListChanged", true)
        .put("promptsListChanged", false);
    HttpRequest request =
        HttpRequest.newBuilder(transport.uri())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", VERSION)
            .header("Mcp-Method", "subscriptions/listen")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    request("sub-1", "subscriptions/listen", params)))
            .build();
    HttpResponse<InputStream> response =
        http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));

    JsonNode ack = nextData(reader);
    server.changes().promptsListChanged();
    server.changes().toolsListChanged();
    JsonNode change = nextData(reader);
    response.body().close();

    assertThat(ack.path("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(ack.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText())
        .isEqualTo("sub-1");
    assertThat(ack.at("/params/notifications/toolsListChanged").asBoolean()).isTrue();
    assertThat(ack.at("/params/notifications").has("promptsListChanged")).isFalse();
    assertThat(change.path("method").asText()).isEqualTo("notifications/tools/list_changed");
    assertThat(change.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText())
        .isEqualTo("sub-1");
    await().atMost(Duration.ofSeconds(20)).until(() -> server.changes().openStreams() == 0);
  }

  private static JsonNode nextData(BufferedReader reader) throws Exception {
    String line;
    while ((line = reader.readLine()) != null) {
      if (line.startsWith("data:")) {
        return JSON.readTree(line.substring(5).trim());
      }
    }
    throw new AssertionError("the stream ended");
  }

  private static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
