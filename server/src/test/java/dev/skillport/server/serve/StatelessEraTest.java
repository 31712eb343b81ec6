package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.mcp.RequestMeta;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.plugins.AdapterSettings;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.StateSigner;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MvStoreJobStore;
import dev.skillport.server.app.ListingPolicy;
import dev.skillport.server.app.SkillportService;
import dev.skillport.workflows.MemoryWorkflowStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application's side of the 2026-07-28 era over real HTTP (mcp-surface.md section 9): what a
 * stateless client lists under each listing policy, {@code load_skill} that reads and changes no
 * list, {@code call_tool}, group handles, questions asked through {@code input_required} with
 * signed state, and tasks on the job store.
 */
class StatelessEraTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path tmp;
  private ServeConfig config;
  private SkillportServer server;
  private StreamableHttpTransport http;
  private JobScheduler jobs;
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final AtomicInteger ids = new AtomicInteger();
  private final AtomicInteger greetings = new AtomicInteger();
  private final AtomicInteger slowRuns = new AtomicInteger();
  // The Idempotency-Key header the next requests carry, or null.
  private volatile String idempotencyHeader;
  private final java.util.concurrent.atomic.AtomicReference<String> traceSeen =
      new java.util.concurrent.atomic.AtomicReference<>();

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @BeforeEach
  void start() throws Exception {
    Path skills = tmp.resolve("skills");
    write(
        skills.resolve("kit/SKILL.md"),
        """
        ---
        name: kit
        description: Greets people and asks their names
        metadata:
          dcc-mcp:
            tools: tools.yaml
            groups: groups.yaml
        ---
        Greet first, then ask.
        """);
    write(
        skills.resolve("kit/tools.yaml"),
        """
        tools:
          - name: greet
            description: Greets someone
            handler: kit.greet
            input_schema:
              type: object
              properties: {name: {type: string}}
              required: [name]
            annotations: {read_only_hint: true}
          - name: ask_name
            description: Asks the user's name, then greets
            handler: kit.ask
          - name: slow
            description: Works until cancelled, or at once when quick
            handler: kit.slow
            execution: async
          - name: danger
            description: Only with the advanced group
            handler: kit.greet
            input_schema:
              type: object
              properties: {name: {type: string}}
        """);
    write(
        skills.resolve("kit/groups.yaml"),
        """
        groups:
          - name: advanced
            description: Dangerous tools
            tools: [danger]
            default-active: false
        """);
    write(
        skills.resolve("more/SKILL.md"),
        """
        ---
        name: more
        description: More tools, so the catalog has some size
        metadata:
          dcc-mcp:
            tools: tools.yaml
            resources: resources.yaml
        ---
        """);
    write(
        skills.resolve("more/resources.yaml"),
        """
        resources:
          - uri: test://more-notes
            name: notes
            mimeType: text/plain
            source: {type: file, path: notes.txt}
        """);
    write(skills.resolve("more/notes.txt"), "v1");
    write(
        skills.resolve("more/tools.yaml"),
        """
        tools:
          - {name: one, description: One, handler: kit.greet}
          - {name: two, description: Two, handler: kit.greet}
        """);
    Map<String, ToolHandler> handlers = new LinkedHashMap<>();
    handlers.put(
        "kit.greet",
        inv -> {
          greetings.incrementAndGet();
          traceSeen.set(org.slf4j.MDC.get(dev.skillport.mcp.McpServer.TRACE_MDC));
          return ToolResult.text("hello " + inv.arguments().path("name").asText("you"));
        });
    handlers.put(
        "kit.ask",
        inv -> {
          ObjectNode params = JSON.createObjectNode().put("message", "Your name?");
          params
              .putObject("requestedSchema")
              .put("type", "object")
              .putObject("properties")
              .putObject("name")
              .put("type", "string");
          JsonNode answer = inv.context().elicit(params);
          return ToolResult.text("hi " + answer.path("content").path("name").asText());
        });
    handlers.put(
        "kit.slow",
        inv -> {
          slowRuns.incrementAndGet();
          long end = System.nanoTime() + WAIT.toNanos();
          while (!inv.arguments().path("quick").asBoolean(false)
              && !inv.context().isCancelled()
              && System.nanoTime() < end) {
            Thread.sleep(20);
          }
          return ToolResult.text("slow done");
        });
    this.config =
        ServeConfig.of(List.of(SkillRoot.of(skills, Scope.REPO)))
            .withWatch(false)
            .withHandlers(handlers);
    launch(ListingPolicy.AUTO, SkillportService.DEFAULT_AUTO_THRESHOLD);
  }

  /** Starts the server (stopping the one before) with this listing policy. */
  private void launch(ListingPolicy policy, int threshold) throws Exception {
    stop();
    jobs = new JobScheduler(MvStoreJobStore.open(tmp.resolve("jobs")), 4);
    ServeExecution execution =
        new ServeExecution(
            new ScriptToolRunner(ScriptPolicy.defaults()),
            jobs,
            CallGuard.of(java.util.Set.of(), tmp.resolve("audit.jsonl")),
            new MemoryWorkflowStore(),
            policy,
            threshold,
            StateSigner.random());
    server =
        SkillportServer.launch(
            config,
            "1.2.3",
            List.of(),
            AdapterSettings.none(),
            BridgeRuntime.none("1.2.3"),
            execution);
    server.catalogLoaded().join();
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
      http = null;
    }
    if (server != null) {
      server.close();
      server = null;
    }
    if (jobs != null) {
      jobs.close();
      jobs = null;
    }
  }

  private void policy(ListingPolicy policy, int threshold) throws Exception {
    launch(policy, threshold);
  }

  /** A 2026-07-28 request with {@code capabilities} declared; returns the JSON-RPC response. */
  private JsonNode modern(String method, ObjectNode params, String capabilities) throws Exception {
    return modernWithMeta(method, params, capabilities, meta -> {});
  }

  private JsonNode modernWithMeta(
      String method, ObjectNode params, java.util.function.Consumer<ObjectNode> extra)
      throws Exception {
    return modernWithMeta(method, params, "{}", extra);
  }

  private JsonNode modernWithMeta(
      String method,
      ObjectNode params,
      String capabilities,
      java.util.function.Consumer<ObjectNode> extra)
      throws Exception {
    ObjectNode meta = params.putObject("_meta");
    meta.put(RequestMeta.PROTOCOL_VERSION, "2026-07-28");
    meta.set(RequestMeta.CLIENT_CAPABILITIES, JSON.readTree(capabilities));
    meta.putObject(RequestMeta.CLIENT_INFO).put("name", "test").put("version", "1");
    extra.accept(meta);
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", ids.incrementAndGet())
            .put("method", method);
    message.set("params", params);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(http.uri().toString()))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    String name =
        params.path("name").isTextual()
            ? params.get("name").asText()
            : params.path("uri").isTextual()
                ? params.get("uri").asText()
                : params.path("taskId").asText(null);
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    if (idempotencyHeader != null) {
      b.header("Idempotency-Key", idempotencyHeader);
    }
    String body =
        client
            .send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
            .body()
            .strip();
    if (body.startsWith("{")) {
      return JSON.readTree(body);
    }
    JsonNode last = null;
    for (String line : body.split("\n")) {
      if (line.startsWith("data:")) {
        JsonNode node = JSON.readTree(line.substring(5).strip());
        if (node.has("result") || node.has("error")) {
          last = node;
        }
      }
    }
    return last;
  }

  private JsonNode modern(String method, ObjectNode params) throws Exception {
    return modern(method, params, "{}");
  }

  private static ObjectNode call(String tool, String arguments) throws IOException {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", JSON.readTree(arguments));
    return params;
  }

  private static ObjectNode callThrough(String target, String arguments) throws IOException {
    ObjectNode args = JSON.createObjectNode().put("name", target);
    args.set("arguments", JSON.readTree(arguments));
    ObjectNode params = JSON.createObjectNode().put("name", "call_tool");
    params.set("arguments", args);
    return params;
  }

  private List<String> toolNames() throws Exception {
    List<String> names = new ArrayList<>();
    modern("tools/list", JSON.createObjectNode())
        .at("/result/tools")
        .forEach(t -> names.add(t.path("name").asText()));
    return names;
  }

  @Test
  void listenStream_resourceSubscription_isToldWhenTheFileChanges() throws Exception {
    ObjectNode params = JSON.createObjectNode();
    params.putObject("notifications").putArray("resourceSubscriptions").add("test://more-notes");
    ObjectNode meta = params.putObject("_meta");
    meta.put(RequestMeta.PROTOCOL_VERSION, "2026-07-28");
    meta.putObject(RequestMeta.CLIENT_CAPABILITIES);
    meta.putObject(RequestMeta.CLIENT_INFO).put("name", "test").put("version", "1");
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", "watch-1")
            .put("method", "subscriptions/listen");
    message.set("params", params);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(http.uri().toString()))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "subscriptions/listen")
            .POST(HttpRequest.BodyPublishers.ofString(message.toString()))
            .build();
    HttpResponse<java.io.InputStream> response =
        client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try (java.io.BufferedReader reader =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      JsonNode ack = nextData(reader);
      assertThat(ack.path("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
      assertThat(ack.at("/params/notifications/resourceSubscriptions/0").asText())
          .isEqualTo("test://more-notes");

      Files.writeString(tmp.resolve("skills/more/notes.txt"), "v2, longer");
      JsonNode update = nextData(reader);

      assertThat(update.path("method").asText()).isEqualTo("notifications/resources/updated");
      assertThat(update.at("/params/uri").asText()).isEqualTo("test://more-notes");
    }
  }

  private static JsonNode nextData(java.io.BufferedReader reader) throws IOException {
    String line;
    while ((line = reader.readLine()) != null) {
      if (line.startsWith("data:")) {
        return JSON.readTree(line.substring(5).strip());
      }
    }
    throw new AssertionError("the stream ended");
  }

  @Test
  void listingPolicies_allCatalogAndAutoByThreshold() throws Exception {
    policy(ListingPolicy.ALL, 64);
    List<String> all = toolNames();
    policy(ListingPolicy.CATALOG, 64);
    List<String> catalog = toolNames();
    policy(ListingPolicy.AUTO, 1000);
    List<String> autoSmall = toolNames();
    policy(ListingPolicy.AUTO, 3);
    List<String> autoLarge = toolNames();

    assertThat(all)
        .contains("greet", "ask_name", "slow", "one", "two", "search_skills", "call_tool")
        .doesNotContain("danger")
        .noneMatch(n -> n.startsWith("__"))
        .doesNotContain("unload_skill", "deactivate_tool_group");
    assertThat(catalog)
        .contains("search_skills", "load_skill", "call_tool")
        .doesNotContain("greet", "one")
        .noneMatch(n -> n.startsWith("__"));
    assertThat(autoSmall).isEqualTo(all);
    assertThat(autoLarge).isEqualTo(catalog);
  }

  @Test
  void toolsList_isTheSameBytesEveryTime_withCacheHints() throws Exception {
    policy(ListingPolicy.ALL, 64);
    JsonNode first = modern("tools/list", JSON.createObjectNode()).get("result");
    modern("tools/call", call("load_skill", "{\"skill_name\":\"kit\"}"));
    JsonNode second = modern("tools/list", JSON.createObjectNode()).get("result");

    assertThat(second.get("tools")).isEqualTo(first.get("tools"));
    assertThat(first.path("resultType").asText()).isEqualTo("complete");
    assertThat(first.path("ttlMs").asLong()).isPositive();
    assertThat(first.path("cacheScope").asText()).isEqualTo("public");
  }

  @Test
  void loadSkill_returnsInstructionsAndFullSchemas_andChangesNoList() throws Exception {
    policy(ListingPolicy.CATALOG, 64);
    List<String> before = toolNames();

    JsonNode loaded =
        modern("tools/call", call("load_skill", "{\"skill_name\":\"kit\"}"))
            .at("/result/structuredContent");

    assertThat(loaded.path("instructions").asText()).contains("Greet first, then ask.");
    JsonNode greet = null;
    for (JsonNode t : loaded.path("tools")) {
      if (t.path("name").asText().equals("kit__greet")) {
        greet = t;
      }
    }
    assertThat(greet).isNotNull();
    assertThat(greet.at("/inputSchema/required/0").asText()).isEqualTo("name");
    assertThat(greet.at("/annotations/readOnlyHint").asBoolean()).isTrue();
    assertThat(greet.path("listed").asBoolean()).isFalse();
    assertThat(toolNames()).isEqualTo(before);
  }

  @Test
  void callTool_callsByQualifiedName_validatedLikeADirectCall_withTheTargetsAnnotations()
      throws Exception {
    policy(ListingPolicy.CATALOG, 64);

    JsonNode ok = modern("tools/call", callThrough("kit__greet", "{\"name\":\"Ada\"}"));
    JsonNode invalid = modern("tools/call", callThrough("kit__greet", "{\"name\":7}"));
    JsonNode unknown = modern("tools/call", callThrough("kit__nothing", "{}"));

    assertThat(ok.at("/result/content/0/text").asText()).isEqualTo("hello Ada");
    assertThat(ok.at("/result/_meta/dcc.called_tool/annotations/readOnlyHint").asBoolean())
        .isTrue();
    assertThat(invalid.at("/result/isError").asBoolean()).isTrue();
    assertThat(invalid.at("/result/content/0/text").asText()).containsIgnoringCase("name");
    assertThat(unknown.at("/result/isError").asBoolean() || unknown.has("error")).isTrue();
    assertThat(greetings).hasValue(1);
  }

  @Test
  void groupTool_needsTheSignedHandle_aTamperedOneIsRefused() throws Exception {
    policy(ListingPolicy.CATALOG, 64);

    JsonNode without = modern("tools/call", callThrough("kit__danger", "{\"name\":\"x\"}"));
    String handle =
        modern("tools/call", call("activate_tool_group", "{\"group\":\"advanced\"}"))
            .at("/result/structuredContent/group_handle")
            .asText();
    ObjectNode with = callThrough("kit__danger", "{\"name\":\"x\"}");
    ((ObjectNode) with.get("arguments")).put("group_handle", handle);
    JsonNode allowed = modern("tools/call", with);
    ObjectNode tampered = callThrough("kit__danger", "{\"name\":\"x\"}");
    ((ObjectNode) tampered.get("arguments")).put("group_handle", tamper(handle));
    JsonNode refused = modern("tools/call", tampered);

    assertThat(handle).isNotBlank();
    assertThat(without.at("/result/isError").asBoolean()).isTrue();
    assertThat(allowed.at("/result/content/0/text").asText()).isEqualTo("hello x");
    assertThat(refused.at("/result/isError").asBoolean()).isTrue();
  }

  /**
   * The handle with one character of its signature changed: one well inside the last part, so its
   * every bit counts (a base64 text's last character may carry unused bits).
   */
  private static String tamper(String handle) {
    int at = handle.length() - 6;
    char other = handle.charAt(at) == 'A' ? 'B' : 'A';
    return handle.substring(0, at) + other + handle.substring(at + 1);
  }

  @Test
  void elicitation_isAnInputRequiredRoundTrip_withSignedState() throws Exception {
    policy(ListingPolicy.ALL, 64);
    String caps = "{\"elicitation\":{\"form\":{}}}";

    JsonNode first = modern("tools/call", call("ask_name", "{}"), caps).get("result");
    String key = first.path("inputRequests").fieldNames().next();
    String state = first.path("requestState").asText();
    ObjectNode retry = call("ask_name", "{}");
    retry.put("requestState", state);
    retry
        .putObject("inputResponses")
        .putObject(key)
        .put("action", "accept")
        .putObject("content")
        .put("name", "Grace");
    JsonNode done = modern("tools/call", retry.deepCopy(), caps).get("result");
    ObjectNode tampered = retry.deepCopy();
    tampered.put("requestState", state.replace('.', '!'));
    JsonNode forged = modern("tools/call", tampered, caps);
    ObjectNode otherArgs = retry.deepCopy();
    otherArgs.set("arguments", JSON.readTree("{\"extra\":1}"));
    JsonNode moved = modern("tools/call", otherArgs, caps);
    JsonNode noCapability = modern("tools/call", call("ask_name", "{}"));

    assertThat(first.path("resultType").asText()).isEqualTo("input_required");
    assertThat(first.at("/inputRequests/" + key + "/method").asText())
        .isEqualTo("elicitation/create");
    assertThat(done.path("resultType").asText()).isEqualTo("complete");
    assertThat(done.at("/content/0/text").asText()).isEqualTo("hi Grace");
    assertThat(forged.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(moved.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(noCapability.at("/error/code").asInt()).isEqualTo(-32021);
  }

  @Test
  void asyncTool_isATask_polledToCompletion_orCancelled_othersSeeNoSuchTask() throws Exception {
    policy(ListingPolicy.ALL, 64);
    String caps = "{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";

    JsonNode quick = modern("tools/call", call("slow", "{\"quick\":true}"), caps).get("result");
    String quickId = quick.path("taskId").asText();
    await()
        .atMost(WAIT)
        .until(
            () ->
                modern("tasks/get", task(quickId), caps)
                    .at("/result/status")
                    .asText()
                    .equals("completed"));
    JsonNode completed = modern("tasks/get", task(quickId), caps).get("result");
    JsonNode running = modern("tools/call", call("slow", "{}"), caps).get("result");
    String longId = running.path("taskId").asText();
    modern("tasks/cancel", task(longId), caps);
    await()
        .atMost(WAIT)
        .until(
            () ->
                modern("tasks/get", task(longId), caps)
                    .at("/result/status")
                    .asText()
                    .equals("cancelled"));
    JsonNode guessed = modern("tasks/get", task("00000000-0000-0000-0000-000000000000"), caps);
    JsonNode withoutExtension = modern("tasks/get", task(quickId));
    JsonNode noExtensionCall = modern("tools/call", call("slow", "{\"quick\":true}"));

    assertThat(quick.path("resultType").asText()).isEqualTo("task");
    assertThat(quickId).matches("[0-9a-f-]{36}");
    assertThat(completed.at("/result/content/0/text").asText()).isEqualTo("slow done");
    assertThat(guessed.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(withoutExtension.at("/error/code").asInt()).isEqualTo(-32021);
    assertThat(noExtensionCall.at("/result/structuredContent/job_id").asText()).isNotBlank();
  }

  @Test
  void idempotencyKey_aRetryGetsTheFirstTask_anotherCallWithItIsRefused() throws Exception {
    policy(ListingPolicy.ALL, 64);
    String caps = "{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";
    java.util.function.Consumer<ObjectNode> metaKey =
        meta -> meta.putObject("dcc").put("idempotencyKey", "key-1");

    idempotencyHeader = "key-1";
    String first =
        modern("tools/call", call("slow", "{\"quick\":true}"), caps).at("/result/taskId").asText();
    String again =
        modern("tools/call", call("slow", "{\"quick\":true}"), caps).at("/result/taskId").asText();
    JsonNode otherArguments = modern("tools/call", call("slow", "{}"), caps);
    idempotencyHeader = "key-2";
    JsonNode twoKeys =
        modernWithMeta("tools/call", call("slow", "{\"quick\":true}"), caps, metaKey);
    idempotencyHeader = null;
    String inMeta =
        modernWithMeta("tools/call", call("slow", "{\"quick\":true}"), caps, metaKey)
            .at("/result/taskId")
            .asText();
    await()
        .atMost(WAIT)
        .until(
            () ->
                modern("tasks/get", task(first), caps)
                    .at("/result/status")
                    .asText()
                    .equals("completed"));
    JsonNode afterTheEnd =
        modernWithMeta("tools/call", call("slow", "{\"quick\":true}"), caps, metaKey).get("result");
    String unkeyed =
        modern("tools/call", call("slow", "{\"quick\":true}"), caps).at("/result/taskId").asText();

    assertThat(first).matches("[0-9a-f-]{36}");
    assertThat(again).isEqualTo(first);
    assertThat(inMeta).isEqualTo(first);
    assertThat(afterTheEnd.path("taskId").asText()).isEqualTo(first);
    assertThat(afterTheEnd.path("status").asText()).isEqualTo("completed");
    assertThat(unkeyed).isNotEqualTo(first);
    assertThat(otherArguments.at("/result/isError").asBoolean()).isTrue();
    assertThat(otherArguments.at("/result/structuredContent/code").asText())
        .isEqualTo("IDEMPOTENCY_KEY_REUSED");
    assertThat(otherArguments.at("/result/structuredContent/message").asText()).contains(first);
    assertThat(twoKeys.at("/error/code").asInt()).isEqualTo(-32602);
    // The keyed task ran once, the unkeyed one once.
    await().atMost(WAIT).until(() -> slowRuns.get() == 2);
    Thread.sleep(200);
    assertThat(slowRuns.get()).isEqualTo(2);
  }

  @Test
  void traceparent_reachesTheHandlersLogContextAndTheAuditLine() throws Exception {
    policy(ListingPolicy.ALL, 64);
    String trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    ObjectNode params = call("greet", "{\"name\":\"Ada\"}");

    JsonNode reply =
        modernWithMeta("tools/call", params, meta -> meta.put(RequestMeta.TRACEPARENT, trace));

    assertThat(reply.at("/result/content/0/text").asText()).isEqualTo("hello Ada");
    assertThat(traceSeen.get()).isEqualTo(trace);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(Files.readString(tmp.resolve("audit.jsonl")))
                    .contains("\"traceparent\":\"" + trace + "\"")
                    .contains("\"tool\":\"greet\""));
  }

  private static ObjectNode task(String id) {
    return JSON.createObjectNode().put("taskId", id);
  }
}
