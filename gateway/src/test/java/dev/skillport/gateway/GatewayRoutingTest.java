package dev.skillport.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.LogLevel;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway in front of a stand-in instance (an {@link McpServer} over Streamable HTTP that takes
 * two callers' tokens and the gateway's own), spoken to over HTTP as a 2026-07-28 client: tasks,
 * cancellation, progress and log entries, {@code input_required} rounds, resources and prompts,
 * caller isolation, policy, per-instance limits, the page and the metrics.
 */
class GatewayRoutingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ALICE = "alice-token-0123456789";
  private static final String BOB = "bob-token-0123456789";
  private static final String GATEWAY = "gateway-token-0123456789";

  @TempDir Path dir;

  private final Map<String, String> taskOwners = new ConcurrentHashMap<>();
  private final Map<String, String> taskStates = new ConcurrentHashMap<>();
  private final CountDownLatch slowCancelled = new CountDownLatch(1);
  private final AtomicInteger slowRunning = new AtomicInteger();
  private final AtomicInteger slowMax = new AtomicInteger();
  private volatile CountDownLatch release = new CountDownLatch(1);
  private StreamableHttpTransport instance;
  private StreamableHttpTransport gatewayHttp;
  private Gateway gateway;
  private URI url;
  private final InstanceClient client = new InstanceClient("test");

  @BeforeEach
  void start() throws Exception {
    start(Gateway.Settings.DEFAULT);
  }

  private void start(Gateway.Settings base) throws Exception {
    start(base, true);
  }

  private void start(Gateway.Settings base, boolean tokens) throws Exception {
    stop();
    release = new CountDownLatch(1);
    McpServer fake =
        McpServer.builder(new ServerInfo("fake-instance", "1"))
            .capabilities(era -> JSON.createObjectNode())
            .handler("tools/call", this::tool)
            .handler("tasks/get", this::taskGet)
            .handler("tasks/cancel", this::taskCancel)
            .handler("resources/list", (ctx, p) -> resources())
            .handler("resources/read", this::read)
            .handler("prompts/list", (ctx, p) -> prompts())
            .handler("prompts/get", this::prompt)
            .build();
    instance =
        StreamableHttpTransport.builder(fake)
            .host("127.0.0.1")
            .port(0)
            .authTokens(tokens ? List.of(ALICE, BOB, GATEWAY) : List.of())
            // A call whose client went away is noticed at the next keep-alive it cannot write.
            .keepAliveInterval(Duration.ofMillis(100))
            .build();
    instance.start();
    FolderRegistry registry = FolderRegistry.open(dir.resolve("registry-" + System.nanoTime()));
    registry.put(
        new InstanceEntry(
            "fake", instance.uri(), "maya", "2025", List.of(), "d1", List.of(), "1", 1, null));
    gateway =
        new Gateway(
            registry,
            new InstanceClient("test"),
            Duration.ofSeconds(5),
            Clock.systemUTC(),
            new Gateway.Settings(base.policy(), base.callTimeout(), base.concurrency(), GATEWAY));
    gateway.probeOnce();
    McpServer mcp = GatewayMcp.build(gateway, "test");
    gatewayHttp =
        StreamableHttpTransport.builder(mcp)
            .host("127.0.0.1")
            .port(0)
            .routes(new GatewayPage(gateway, Clock.systemUTC()))
            .keepAliveInterval(Duration.ofMillis(100))
            .build();
    gatewayHttp.start();
    url = gatewayHttp.uri();
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (gatewayHttp != null) {
      gatewayHttp.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    if (instance != null) {
      instance.close();
    }
  }

  // --- the stand-in instance ----------------------------------------------------------------

  private static String caller(RequestContext ctx) {
    return ctx.caller().principal().orElse("(nobody)");
  }

  private JsonNode tool(RequestContext ctx, JsonNode params) throws McpException {
    String name = params.path("name").asText();
    JsonNode args = params.path("arguments");
    switch (name) {
      case "list_skills" -> {
        ObjectNode out = JSON.createObjectNode();
        out.putObject("structuredContent")
            .putArray("skills")
            .addObject()
            .put("name", "kit")
            .put("status", "loaded")
            .put("description", "a kit of tools")
            .put("tool_names", "job,slow,ask,look");
        return out;
      }
      case "get_skill_info" -> {
        ObjectNode out = JSON.createObjectNode();
        ObjectNode info = out.putObject("structuredContent").put("name", "kit");
        info.putArray("tools")
            .add(JSON.createObjectNode().put("name", "job"))
            .add(JSON.createObjectNode().put("name", "slow"))
            .add(JSON.createObjectNode().put("name", "ask"))
            .add(
                JSON.createObjectNode()
                    .put("name", "look")
                    .set("annotations", JSON.createObjectNode().put("read_only_hint", true)));
        return out;
      }
      case "call_tool" -> {
        return callTool(ctx, params, args.path("name").asText(), args.path("arguments"));
      }
      default -> throw new McpException(ErrorKind.INVALID_PARAMS, "no tool " + name);
    }
  }

  private JsonNode callTool(RequestContext ctx, JsonNode params, String tool, JsonNode args)
      throws McpException {
    switch (tool) {
      case "kit__job" -> {
        String id = "t-" + taskOwners.size();
        taskOwners.put(id, caller(ctx));
        taskStates.put(id, "working");
        boolean tasks =
            ctx.clientCapabilities().path("extensions").has("io.modelcontextprotocol/tasks");
        if (!tasks) {
          return result(false, "no tasks")
              .set("structuredContent", JSON.createObjectNode().put("job_id", id));
        }
        return JSON.createObjectNode()
            .put("resultType", "task")
            .put("taskId", id)
            .put("status", "working");
      }
      case "kit__slow" -> {
        int now = slowRunning.incrementAndGet();
        slowMax.accumulateAndGet(now, Math::max);
        try {
          ctx.onCancel(slowCancelled::countDown);
          ctx.progress(1, 10.0, "started");
          ctx.log(LogLevel.INFO, "fake", "working as " + caller(ctx));
          long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
          while (!ctx.cancelled() && System.nanoTime() < until) {
            if (release.await(20, TimeUnit.MILLISECONDS)) {
              return result(false, "released");
            }
          }
          return result(false, "slow ended");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return result(true, "interrupted");
        } finally {
          slowRunning.decrementAndGet();
        }
      }
      case "kit__ask" -> {
        JsonNode answer = params.path("inputResponses").path("name");
        if ("st-1".equals(params.path("requestState").asText()) && answer.isObject()) {
          return result(false, "Hello, " + answer.path("content").path("name").asText() + "!");
        }
        ObjectNode out = JSON.createObjectNode().put("resultType", "input_required");
        out.putObject("inputRequests")
            .putObject("name")
            .put("method", "elicitation/create")
            .putObject("params")
            .put("message", "Your name?");
        out.put("requestState", "st-1");
        return out;
      }
      case "kit__look" -> {
        return result(false, "looked");
      }
      default -> throw new McpException(ErrorKind.INVALID_PARAMS, "no tool " + tool);
    }
  }

  private static ObjectNode result(boolean error, String text) {
    ObjectNode out = JSON.createObjectNode();
    out.putArray("content").addObject().put("type", "text").put("text", text);
    out.put("isError", error);
    return out;
  }

  private String ownedTask(RequestContext ctx, JsonNode params) throws McpException {
    String id = params.path("taskId").asText();
    if (!caller(ctx).equals(taskOwners.get(id))) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "Unknown task: " + id);
    }
    return id;
  }

  private JsonNode taskGet(RequestContext ctx, JsonNode params) throws McpException {
    String id = ownedTask(ctx, params);
    String state = taskStates.get(id);
    ObjectNode out = JSON.createObjectNode().put("taskId", id).put("status", state);
    if (state.equals("working")) {
      taskStates.put(id, "completed");
    } else if (state.equals("completed")) {
      out.set("result", result(false, "job done"));
    }
    return out;
  }

  private JsonNode taskCancel(RequestContext ctx, JsonNode params) throws McpException {
    taskStates.put(ownedTask(ctx, params), "cancelled");
    return JSON.createObjectNode();
  }

  private static JsonNode resources() {
    ObjectNode out = JSON.createObjectNode();
    out.putArray("resources")
        .addObject()
        .put("uri", "skill://kit/SKILL.md")
        .put("name", "kit SKILL.md");
    return out;
  }

  private JsonNode read(RequestContext ctx, JsonNode params) throws McpException {
    String uri = params.path("uri").asText();
    if (!uri.equals("skill://kit/SKILL.md")) {
      throw new McpException(ErrorKind.RESOURCE_NOT_FOUND, "no " + uri);
    }
    ObjectNode out = JSON.createObjectNode();
    out.putArray("contents").addObject().put("uri", uri).put("text", "# kit");
    return out;
  }

  private static JsonNode prompts() {
    ObjectNode out = JSON.createObjectNode();
    out.putArray("prompts").addObject().put("name", "review").put("description", "a review");
    return out;
  }

  private JsonNode prompt(RequestContext ctx, JsonNode params) throws McpException {
    if (!params.path("name").asText().equals("review")) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "Unknown prompt");
    }
    ObjectNode out = JSON.createObjectNode();
    out.putArray("messages")
        .addObject()
        .put("role", "user")
        .putObject("content")
        .put("type", "text")
        .put("text", "review " + params.path("arguments").path("what").asText());
    return out;
  }

  // --- the client's side -------------------------------------------------------------------

  private static InstanceClient.Relay as(String token) {
    ObjectNode caps = JSON.createObjectNode();
    caps.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
    caps.putObject("elicitation");
    return new InstanceClient.Relay("Bearer " + token, caps, null, null, null, null);
  }

  private JsonNode call(String token, String name, ObjectNode arguments) throws Exception {
    return call(as(token), JSON.createObjectNode(), name, arguments);
  }

  private JsonNode call(
      InstanceClient.Relay relay, ObjectNode extra, String name, ObjectNode arguments)
      throws Exception {
    ObjectNode params = extra.deepCopy().put("name", "call");
    ObjectNode args = params.putObject("arguments").put("name", name);
    args.set("arguments", arguments == null ? JSON.createObjectNode() : arguments);
    return client.request(url, "tools/call", params, Duration.ofSeconds(30), relay);
  }

  private JsonNode task(String token, String method, String taskId) throws Exception {
    return client.request(
        url,
        method,
        JSON.createObjectNode().put("taskId", taskId),
        Duration.ofSeconds(10),
        as(token));
  }

  // --- the tests ------------------------------------------------------------------------------

  @Test
  void aTask_isNamedForItsInstance_polledToCompletion_andOnlyByItsCaller() throws Exception {
    JsonNode created = call(ALICE, "fake/kit__job", null);
    assertThat(created.path("resultType").asText()).isEqualTo("task");
    String id = created.path("taskId").asText();
    assertThat(id).isEqualTo("fake/t-0");
    assertThat(taskOwners.get("t-0"))
        .as("the instance saw Alice, not the gateway")
        .isNotEqualTo("(nobody)");

    assertThat(task(ALICE, "tasks/get", id).path("status").asText()).isEqualTo("working");
    JsonNode done = task(ALICE, "tasks/get", id);
    assertThat(done.path("status").asText()).isEqualTo("completed");
    assertThat(done.path("taskId").asText()).isEqualTo(id);
    assertThat(done.at("/result/content/0/text").asText()).isEqualTo("job done");

    // Bob cannot read or cancel Alice's task through the gateway: the instance sees Bob.
    assertThatThrownBy(() -> task(BOB, "tasks/get", id))
        .isInstanceOf(InstanceClient.RpcError.class)
        .hasMessageContaining("Unknown task");
    assertThatThrownBy(() -> task(BOB, "tasks/cancel", id))
        .isInstanceOf(InstanceClient.RpcError.class)
        .hasMessageContaining("Unknown task");
    assertThat(taskStates).containsEntry("t-0", "completed");
    // An id of no instance is an unknown task, not a routing error.
    assertThatThrownBy(() -> task(ALICE, "tasks/get", "t-0"))
        .isInstanceOf(InstanceClient.RpcError.class)
        .hasMessageContaining("Unknown task");

    JsonNode second = call(ALICE, "fake/kit__job", null);
    task(ALICE, "tasks/cancel", second.path("taskId").asText());
    assertThat(taskStates).containsEntry("t-1", "cancelled");
  }

  @Test
  void aLegacyJob_isNamedForItsInstance() throws Exception {
    JsonNode created =
        call(
            new InstanceClient.Relay("Bearer " + ALICE, null, null, null, null, null),
            JSON.createObjectNode(),
            "kit__job",
            null);
    assertThat(created.at("/structuredContent/job_id").asText()).isEqualTo("fake/t-0");
  }

  @Test
  void cancellingARoutedCall_cancelsItOnTheInstance_andProgressAndLogsComeBack() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    AtomicReference<Runnable> cancel = new AtomicReference<>();
    CountDownLatch progressed = new CountDownLatch(2);
    InstanceClient.Relay relay =
        new InstanceClient.Relay(
            "Bearer " + ALICE,
            JSON.createObjectNode(),
            "info",
            (p, total, message) -> {
              heard.add("progress " + message);
              progressed.countDown();
            },
            params -> {
              heard.add("log " + params.path("data").asText());
              progressed.countDown();
            },
            cancel::set);
    CompletableFuture<Throwable> outcome =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                call(relay, JSON.createObjectNode(), "fake/kit__slow", null);
                return null;
              } catch (Exception e) {
                return e;
              }
            });
    assertThat(progressed.await(10, TimeUnit.SECONDS)).as("progress and log relayed").isTrue();
    long asked = System.nanoTime();
    cancel.get().run();
    assertThat(slowCancelled.await(5, TimeUnit.SECONDS))
        .as("the instance heard the cancellation")
        .isTrue();
    System.out.printf(
        "GatewayRoutingTest: a cancel reached the instance through the gateway in %d ms%n",
        (System.nanoTime() - asked) / 1_000_000);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isInstanceOf(InstanceClient.CancelledException.class);
    assertThat(heard).contains("progress started");
    assertThat(heard).anyMatch(h -> h.startsWith("log working as"));
    assertThat(metrics()).contains("instance=\"fake\",outcome=\"cancelled\"");
  }

  @Test
  void anInputRequiredRound_completesThroughTheGateway() throws Exception {
    JsonNode first = call(ALICE, "fake/kit__ask", null);
    assertThat(first.path("resultType").asText()).isEqualTo("input_required");
    assertThat(first.path("requestState").asText()).isEqualTo("fake/st-1");
    assertThat(first.at("/inputRequests/name/method").asText()).isEqualTo("elicitation/create");

    ObjectNode retry = JSON.createObjectNode();
    retry.set("requestState", first.get("requestState"));
    retry
        .putObject("inputResponses")
        .putObject("name")
        .put("action", "accept")
        .putObject("content")
        .put("name", "Ada");
    JsonNode done = call(as(ALICE), retry, "fake/kit__ask", null);
    assertThat(done.at("/content/0/text").asText()).isEqualTo("Hello, Ada!");

    retry.put("requestState", "other/st-1");
    JsonNode foreign = call(as(ALICE), retry, "fake/kit__ask", null);
    assertThat(foreign.at("/structuredContent/code").asText()).isEqualTo("INVALID_ARGUMENTS");
  }

  @Test
  void aLegacySession_isAskedTheInstancesQuestions_andItsCallCompletes() throws Exception {
    // A 2025-era session carries no token to pass on (the transport keeps its principal only).
    start(Gateway.Settings.DEFAULT, false);
    HttpClient http = HttpClient.newHttpClient();
    ObjectNode init = rpc(1, "initialize");
    ((ObjectNode) init.get("params"))
        .put("protocolVersion", "2025-11-25")
        .putObject("clientInfo")
        .put("name", "legacy")
        .put("version", "1");
    ((ObjectNode) init.get("params")).putObject("capabilities").putObject("elicitation");
    HttpResponse<String> opened = post(http, null, init);
    String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post(
        http,
        session,
        JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    ObjectNode call = rpc(2, "tools/call");
    ((ObjectNode) call.get("params"))
        .put("name", "call")
        .putObject("arguments")
        .put("name", "fake/kit__ask");
    HttpResponse<java.io.InputStream> streamed =
        http.send(request(session, call), HttpResponse.BodyHandlers.ofInputStream());
    JsonNode result = null;
    int asked = 0;
    try (java.io.BufferedReader lines =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(
                streamed.body(), java.nio.charset.StandardCharsets.UTF_8))) {
      String line;
      while (result == null && (line = lines.readLine()) != null) {
        if (!line.startsWith("data:")) {
          continue;
        }
        JsonNode message = JSON.readTree(line.substring(5).strip());
        if ("elicitation/create".equals(message.path("method").asText())) {
          asked++;
          ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
          answer.set("id", message.get("id"));
          answer
              .putObject("result")
              .put("action", "accept")
              .putObject("content")
              .put("name", "Ada");
          post(http, session, answer);
        } else if (message.path("id").asInt() == 2) {
          result = message;
        }
      }
    }
    assertThat(asked).as("the instance's question reached the session").isEqualTo(1);
    assertThat(result.at("/result/content/0/text").asText()).isEqualTo("Hello, Ada!");
    assertThat(result.at("/result/resultType").isMissingNode()).isTrue();
  }

  private static ObjectNode rpc(int id, String method) {
    ObjectNode m =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    m.putObject("params");
    return m;
  }

  private HttpRequest request(String session, JsonNode message) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    return b.build();
  }

  private HttpResponse<String> post(HttpClient http, String session, JsonNode message)
      throws Exception {
    HttpResponse<String> r =
        http.send(request(session, message), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isBetween(200, 202);
    return r;
  }

  @Test
  void resourcesAndPrompts_nameTheirInstance() throws Exception {
    JsonNode listed =
        client.request(
            url, "resources/list", JSON.createObjectNode(), Duration.ofSeconds(10), as(ALICE));
    assertThat(listed.at("/resources/0/uri").asText())
        .isEqualTo("gateway://fake/skill://kit/SKILL.md");
    JsonNode read =
        client.request(
            url,
            "resources/read",
            JSON.createObjectNode().put("uri", "gateway://fake/skill://kit/SKILL.md"),
            Duration.ofSeconds(10),
            as(ALICE));
    assertThat(read.at("/contents/0/text").asText()).isEqualTo("# kit");
    assertThat(read.at("/contents/0/uri").asText())
        .isEqualTo("gateway://fake/skill://kit/SKILL.md");
    assertThatThrownBy(
            () ->
                client.request(
                    url,
                    "resources/read",
                    JSON.createObjectNode().put("uri", "skill://kit/SKILL.md"),
                    Duration.ofSeconds(10),
                    as(ALICE)))
        .isInstanceOf(InstanceClient.RpcError.class);

    JsonNode prompts =
        client.request(
            url, "prompts/list", JSON.createObjectNode(), Duration.ofSeconds(10), as(ALICE));
    assertThat(prompts.at("/prompts/0/name").asText()).isEqualTo("fake/review");
    ObjectNode get = JSON.createObjectNode().put("name", "fake/review");
    get.putObject("arguments").put("what", "the scene");
    JsonNode got = client.request(url, "prompts/get", get, Duration.ofSeconds(10), as(ALICE));
    assertThat(got.at("/messages/0/content/text").asText()).isEqualTo("review the scene");
  }

  @Test
  void policy_readOnlyAndAllowedTools_areEnforcedAtTheGateway() throws Exception {
    start(
        new Gateway.Settings(
            new GatewayPolicy(true, List.of("maya"), List.of("kit"), List.of("look", "job")),
            Duration.ofSeconds(30),
            4,
            null));
    assertThat(call(ALICE, "fake/kit__look", null).at("/content/0/text").asText())
        .isEqualTo("looked");
    assertThat(call(ALICE, "fake/kit__job", null).at("/structuredContent/code").asText())
        .as("not read-only")
        .isEqualTo("POLICY_REFUSED");
    assertThat(call(ALICE, "fake/kit__ask", null).at("/structuredContent/code").asText())
        .as("not an allowed tool")
        .isEqualTo("POLICY_REFUSED");

    start(
        new Gateway.Settings(
            new GatewayPolicy(false, List.of("blender"), List.of(), List.of()),
            Duration.ofSeconds(30),
            4,
            null));
    assertThat(call(ALICE, "fake/kit__look", null).at("/structuredContent/code").asText())
        .as("a maya instance behind a blender-only gateway")
        .isEqualTo("NOT_FOUND");
    JsonNode listed =
        client.request(
            url, "resources/list", JSON.createObjectNode(), Duration.ofSeconds(10), as(ALICE));
    assertThat(listed.path("resources")).isEmpty();
  }

  @Test
  void aSlowInstance_fillsOnlyItsOwnSlots_andTimesOut() throws Exception {
    start(new Gateway.Settings(GatewayPolicy.OPEN, Duration.ofSeconds(3), 1, null));
    release = new CountDownLatch(1);
    CompletableFuture<JsonNode> first =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return call(ALICE, "fake/kit__slow", null);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (slowRunning.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    JsonNode busy = call(ALICE, "fake/kit__look", null);
    assertThat(busy.at("/structuredContent/code").asText()).isEqualTo("INSTANCE_BUSY");
    JsonNode timedOut = first.get(15, TimeUnit.SECONDS);
    assertThat(timedOut.at("/structuredContent/code").asText()).isEqualTo("INSTANCE_TIMEOUT");
    assertThat(slowMax.get()).isEqualTo(1);
    assertThat(metrics())
        .contains("skillport_gateway_routed_requests_total{instance=\"fake\",outcome=\"busy\"} 1")
        .contains(
            "skillport_gateway_routed_requests_total{instance=\"fake\",outcome=\"timeout\"} 1");
  }

  @Test
  void thePageAndMetrics_showTheInstances() throws Exception {
    call(ALICE, "fake/kit__look", null);
    String page = get("/");
    assertThat(page).contains("data-instance=\"fake\"", ">up<", ">maya 2025<", ">1<");
    assertThat(metrics())
        .contains("skillport_gateway_instances{state=\"up\"} 1")
        .contains("skillport_gateway_routed_requests_total{instance=\"fake\",outcome=\"ok\"}");
  }

  private String metrics() throws Exception {
    return get("/metrics");
  }

  private String get(String path) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(url.resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }
}
