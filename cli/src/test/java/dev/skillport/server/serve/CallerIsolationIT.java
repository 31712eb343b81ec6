package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.runtime.core.CoreTools;
import dev.skillport.runtime.core.StatelessTools;
import dev.skillport.testsupport.LaunchedServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two callers (tokens A and B) and an operator (an admin token) on {@code bin/skillport serve
 * --http}: whatever names A's work (a session, job, task, workflow run, input round, group handle,
 * audit entry) answers B exactly as an unknown id does, in both eras, and A's work is unchanged
 * afterwards. The methods and core tools come from the server's own registry; each has a row here
 * saying how it is exercised with another caller's id, or that it names no owned state, so a new
 * one without a row fails {@link #registry_everyMethodAndCoreTool_hasARow}.
 */
class CallerIsolationIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String A = "token-of-caller-a-0123456789";
  private static final String B = "token-of-caller-b-9876543210";
  private static final String OPS = "token-of-the-operator-555555";
  private static final String LEGACY = "2025-11-25";
  private static final String MODERN = "2026-07-28";
  private static final String TASKS = "{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";
  private static final String ELICIT = "{\"elicitation\":{\"form\":{}}}";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final AtomicInteger IDS = new AtomicInteger(1000);

  /**
   * JSON-RPC methods that name state a caller owns, beside the session every 2025-era request names
   * (which {@link #everyMethod_onAnotherCallersSession_answersAsAnUnknownSession} covers for every
   * method): the row that exercises each.
   */
  private static final Map<String, String> METHODS_NAMING_OWNED_STATE =
      Map.of(
          "tasks/get", "tasks_anotherCallersTask_answersAsAnUnknownTask",
          "tasks/update", "tasks_anotherCallersTask_answersAsAnUnknownTask",
          "tasks/cancel", "tasks_anotherCallersTask_answersAsAnUnknownTask",
          "tools/call", "inputRound_anotherCallersRequestState_answersAsAForgedOne",
          "prompts/get", "promptRound_anotherCallersRequestState_answersAsAForgedOne");

  /** Methods that name no state of a caller's own (what they read is the catalog's). */
  private static final Set<String> METHODS_NAMING_NONE =
      Set.of(
          "initialize",
          "ping",
          "logging/setLevel",
          "server/discover",
          "subscriptions/listen",
          "tools/list",
          "prompts/list",
          "resources/list",
          "resources/read",
          "resources/templates/list",
          "resources/subscribe",
          "resources/unsubscribe",
          "completion/complete",
          "skills/list",
          "skills/get",
          "resources/directory/read");

  /** Core tools (both eras) and diagnostics tools that name owned state: the row of each. */
  private static final Map<String, String> TOOLS_NAMING_OWNED_STATE =
      Map.ofEntries(
          Map.entry("jobs_get_status", "jobs_anotherCallersJob_answersAsAnUnknownJob"),
          Map.entry("jobs_cancel", "jobs_anotherCallersJob_answersAsAnUnknownJob"),
          Map.entry("jobs_cleanup", "jobsCleanup_removesTheCallersOwnJobsOnly"),
          Map.entry("workflows_get_status", "workflows_anotherCallersRun_answersAsAnUnknownRun"),
          Map.entry("workflows_cancel", "workflows_anotherCallersRun_answersAsAnUnknownRun"),
          Map.entry("workflows_approve", "workflows_anotherCallersRun_answersAsAnUnknownRun"),
          Map.entry("workflows_run", "workflows_anotherCallersRun_answersAsAnUnknownRun"),
          Map.entry("workflows_resume", "workflows_anotherCallersRun_answersAsAnUnknownRun"),
          Map.entry("call_tool", "callTool_anotherCallersGroupHandle_answersAsABogusOne"),
          Map.entry("register_tool", "dynamicTools_anotherCallersTool_answersAsAnUnknownOne"),
          Map.entry("deregister_tool", "dynamicTools_anotherCallersTool_answersAsAnUnknownOne"),
          Map.entry("list_dynamic_tools", "dynamicTools_anotherCallersTool_answersAsAnUnknownOne"),
          Map.entry("activate_tool_group", "callTool_anotherCallersGroupHandle_answersAsABogusOne"),
          Map.entry("recent_calls", "diagnostics_showACallerItsOwnCalls_anOperatorEveryones"),
          Map.entry("tool_metrics", "diagnostics_showACallerItsOwnCalls_anOperatorEveryones"));

  /** Core tools that name no state of a caller's own. */
  private static final Set<String> TOOLS_NAMING_NONE =
      Set.of(
          "search_skills",
          "list_skills",
          "get_skill_info",
          "load_skill",
          "unload_skill",
          "deactivate_tool_group",
          "search_tools",
          "list_roots",
          "workflows_lookup",
          "workflows_list",
          "workflows_describe",
          "server_status",
          "skill_diagnostics");

  /**
   * The REST API's operations (method and path, as its OpenAPI document lists them; one operation
   * per tool stands as {@code /v1/tools/{name}/call}) that name state a caller owns: the row of
   * each.
   */
  private static final Map<String, String> REST_NAMING_OWNED_STATE =
      Map.of(
          "GET /v1/jobs/{id}", "rest_anotherCallersJob_answersAsAnUnknownJob",
          "DELETE /v1/jobs/{id}", "rest_anotherCallersJob_answersAsAnUnknownJob");

  /** REST operations that name no state of a caller's own (a call starts its own work). */
  private static final Set<String> REST_NAMING_NONE =
      Set.of(
          "GET /v1/skills",
          "GET /v1/skills/{name}",
          "GET /v1/tools/{name}",
          "POST /v1/call",
          "POST /v1/call_batch",
          "POST /v1/tools/{name}/call",
          "GET /v1/openapi.json");

  @TempDir static Path home;
  @TempDir static Path skills;
  private static LaunchedServer server;
  private static String sessionA;
  private static String sessionB;
  private static String sessionOps;

  @BeforeAll
  static void start() throws Exception {
    writeSkill(skills.resolve("ownedwork"));
    server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--skills",
            skills.toString(),
            "--preload",
            "ownedwork,skillport-diagnostics",
            "--tool-listing",
            "all",
            "--auth-token",
            A,
            "--auth-token",
            B,
            "--admin-token",
            OPS);
    sessionA = open(A);
    sessionB = open(B);
    sessionOps = open(OPS);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static void writeSkill(Path dir) throws Exception {
    Files.createDirectories(dir.resolve("scripts"));
    Files.createDirectories(dir.resolve("workflows"));
    Files.writeString(
        dir.resolve("SKILL.md"),
        """
        ---
        name: ownedwork
        description: Starts jobs, asks a question and gates a workflow, for ownership checks
        metadata:
          dcc-mcp:
            tools: tools.yaml
            workflows: workflows/*.workflow.yaml
            prompts: prompts.yaml
        ---
        Jobs with quick and slow; ask_name asks first; the gate workflow waits for approval.
        """);
    Files.writeString(
        dir.resolve("tools.yaml"),
        """
        tools:
          - name: quick
            description: Finishes at once, as a job
            execution: async
          - name: slow
            description: Works for the given seconds, as a job or task
            execution: async
            input_schema:
              type: object
              properties: {seconds: {type: number}}
          - name: ask_name
            description: Asks the user's name, then greets them
          - name: hidden
            description: A tool of a group that is not active by default
        groups:
          - name: extra
            description: Extra tools
            tools: [hidden]
        """);
    Files.writeString(
        dir.resolve("prompts.yaml"),
        """
        prompts:
          - name: welcome
            description: Welcomes someone
            arguments:
              - name: who
                description: Who
                required: true
            template: "Welcome, {{who}}!"
        """);
    Files.writeString(
        dir.resolve("scripts/quick.sh"),
        "#!/usr/bin/env bash\necho '{\"success\": true, \"message\": \"quick\"}'\n");
    Files.writeString(
        dir.resolve("scripts/hidden.sh"),
        "#!/usr/bin/env bash\necho '{\"success\": true, \"message\": \"hidden\"}'\n");
    Files.writeString(
        dir.resolve("scripts/slow.sh"),
        """
        #!/usr/bin/env bash
        seconds=1
        while [ $# -gt 0 ]; do
          case "$1" in --seconds) seconds=$2; shift 2;; *) shift;; esac
        done
        sleep "$seconds"
        echo '{"success": true, "message": "slow"}'
        """);
    try (var script = CallerIsolationIT.class.getResourceAsStream("/flow-kit/ask_name.py")) {
      Files.write(dir.resolve("scripts/ask_name.py"), script.readAllBytes());
    }
    Files.writeString(
        dir.resolve("workflows/gate.workflow.yaml"),
        """
        name: gate
        description: Waits for an approval, then runs quick
        inputs: {type: object, properties: {}}
        steps:
          - {id: ok, kind: approve, prompt: "Go?"}
          - {id: go, kind: tool, tool: quick}
        """);
  }

  // ---- The registry and its rows ----

  @Test
  void registry_everyMethodAndCoreTool_hasARow() throws Exception {
    Set<String> methods;
    try (var inProcess =
        SkillportServer.start(
            ServeConfig.of(List.<SkillRoot>of()).withWatch(false), "registry-only")) {
      methods = inProcess.mcp().methods();
    }
    Set<String> tools = new TreeSet<>();
    CoreTools.DEFINITIONS.forEach(t -> tools.add(t.name()));
    StatelessTools.definitions(CoreTools.DEFINITIONS).forEach(t -> tools.add(t.name()));
    // What the launched server lists besides: the workflow tools and the diagnostics skill's.
    Set<String> fixture = Set.of("quick", "slow", "ask_name", "hidden");
    for (JsonNode tool :
        legacy(A, sessionA, "tools/list", JSON.createObjectNode()).at("/result/tools")) {
      String name = tool.path("name").asText();
      boolean fixtures = fixture.contains(name) || name.startsWith("ownedwork__");
      // __skill__ and __group__ stubs stand for a skill or group to load: they name no state.
      if (!fixtures && !name.startsWith("__")) {
        tools.add(name.contains("__") ? name.substring(name.lastIndexOf("__") + 2) : name);
      }
    }

    assertThat(methods).contains("tools/call", "tasks/get");
    assertThat(tools).contains("jobs_cleanup", "workflows_run", "recent_calls", "call_tool");
    Set<String> methodsWithoutRow = new TreeSet<>(methods);
    methodsWithoutRow.removeAll(METHODS_NAMING_OWNED_STATE.keySet());
    methodsWithoutRow.removeAll(METHODS_NAMING_NONE);
    Set<String> toolsWithoutRow = new TreeSet<>(tools);
    toolsWithoutRow.removeAll(TOOLS_NAMING_OWNED_STATE.keySet());
    toolsWithoutRow.removeAll(TOOLS_NAMING_NONE);

    assertThat(methodsWithoutRow)
        .as("methods need a row here: do they name a caller's state?")
        .isEmpty();
    assertThat(toolsWithoutRow)
        .as("tools need a row here: do they name a caller's state?")
        .isEmpty();
    Set<String> rows = new TreeSet<>(METHODS_NAMING_OWNED_STATE.values());
    rows.addAll(TOOLS_NAMING_OWNED_STATE.values());
    for (String row : rows) {
      assertThat(CallerIsolationIT.class.getDeclaredMethod(row).isAnnotationPresent(Test.class))
          .as("row %s is a test", row)
          .isTrue();
    }
  }

  @Test
  void registry_everyRestOperation_hasARow() throws Exception {
    Set<String> operations = new TreeSet<>();
    JsonNode paths = rest(A, "GET", "/v1/openapi.json").body().path("paths");
    for (Map.Entry<String, JsonNode> path : paths.properties()) {
      String at = path.getKey().replaceAll("^/v1/tools/[^/{]+/call$", "/v1/tools/{name}/call");
      for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
        if (!operation.getKey().equals("parameters")) {
          operations.add(operation.getKey().toUpperCase(java.util.Locale.ROOT) + " " + at);
        }
      }
    }

    assertThat(operations).contains("GET /v1/jobs/{id}", "POST /v1/tools/{name}/call");
    Set<String> withoutRow = new TreeSet<>(operations);
    withoutRow.removeAll(REST_NAMING_OWNED_STATE.keySet());
    withoutRow.removeAll(REST_NAMING_NONE);
    assertThat(withoutRow)
        .as("REST operations need a row here: do they name a caller's state?")
        .isEmpty();
    for (String row : new TreeSet<>(REST_NAMING_OWNED_STATE.values())) {
      assertThat(CallerIsolationIT.class.getDeclaredMethod(row).isAnnotationPresent(Test.class))
          .as("row %s is a test", row)
          .isTrue();
    }
  }

  @Test
  void rest_anotherCallersJob_answersAsAnUnknownJob() throws Exception {
    String job =
        legacyTool(A, sessionA, "ownedwork__slow", "{\"seconds\": 30}")
            .at("/result/structuredContent/job_id")
            .asText();
    String unknown = UUID.randomUUID().toString();
    for (String method : List.of("GET", "DELETE")) {
      Reply theirs = rest(B, method, "/v1/jobs/" + job);
      Reply none = rest(B, method, "/v1/jobs/" + unknown);

      assertThat(theirs.status()).as(method).isEqualTo(404);
      assertThat(theirs.body().path("code").asText()).as(method).isEqualTo("JOB_NOT_FOUND");
      assertThat(none.status()).as(method).isEqualTo(theirs.status());
      assertThat(sameAnswer(theirs.body(), job, none.body(), unknown)).as(method).isTrue();
    }
    Reply mine = rest(A, "GET", "/v1/jobs/" + job);
    assertThat(mine.status()).isEqualTo(200);
    assertThat(mine.body().path("status").asText()).isIn("pending", "running");
    assertThat(rest(A, "DELETE", "/v1/jobs/" + job).status()).isEqualTo(200);
  }

  // ---- Sessions (2025 era) ----

  @Test
  void everyMethod_onAnotherCallersSession_answersAsAnUnknownSession() throws Exception {
    Set<String> methods = new TreeSet<>(METHODS_NAMING_OWNED_STATE.keySet());
    methods.addAll(METHODS_NAMING_NONE);
    String unknown = UUID.randomUUID().toString().replace("-", "");
    for (String method : methods) {
      int id = IDS.incrementAndGet();
      Reply theirs = post(B, sessionA, method, JSON.createObjectNode(), LEGACY, id);
      Reply none = post(B, unknown, method, JSON.createObjectNode(), LEGACY, id);

      assertThat(theirs.status()).as(method).isEqualTo(404);
      assertThat(theirs).as(method).isEqualTo(none);
    }
    assertSessionWorks(A, sessionA);
  }

  @Test
  void getStreamAndReplay_onAnotherCallersSession_answerAsAnUnknownSession() throws Exception {
    String unknown = UUID.randomUUID().toString().replace("-", "");

    Reply stream = get(B, sessionA, null);
    Reply unknownStream = get(B, unknown, null);
    Reply replay = get(B, sessionA, "1");
    Reply unknownReplay = get(B, unknown, "1");

    assertThat(stream.status()).isEqualTo(404);
    assertThat(stream).isEqualTo(unknownStream);
    assertThat(replay).isEqualTo(unknownReplay);
    assertSessionWorks(A, sessionA);
  }

  @Test
  void delete_ofAnotherCallersSession_answersAsAnUnknownOne_andLeavesItWorking() throws Exception {
    String unknown = UUID.randomUUID().toString().replace("-", "");

    Reply theirs = delete(B, sessionA);
    Reply none = delete(B, unknown);

    assertThat(theirs.status()).isEqualTo(404);
    assertThat(theirs).isEqualTo(none);
    assertSessionWorks(A, sessionA);
  }

  // ---- Jobs, tasks, runs, rounds, handles ----

  @Test
  void jobs_anotherCallersJob_answersAsAnUnknownJob() throws Exception {
    String job =
        legacyTool(A, sessionA, "ownedwork__slow", "{\"seconds\": 30}")
            .at("/result/structuredContent/job_id")
            .asText();
    String unknown = UUID.randomUUID().toString();
    for (String tool : List.of("jobs_get_status", "jobs_cancel")) {
      JsonNode theirs = legacyTool(B, sessionB, tool, "{\"job_id\": \"" + job + "\"}");
      JsonNode none = legacyTool(B, sessionB, tool, "{\"job_id\": \"" + unknown + "\"}");
      JsonNode theirsModern = modernTool(B, tool, "{\"job_id\": \"" + job + "\"}", "{}");
      JsonNode noneModern = modernTool(B, tool, "{\"job_id\": \"" + unknown + "\"}", "{}");

      assertThat(theirs.at("/result/structuredContent/code").asText())
          .as(tool)
          .isEqualTo("JOB_NOT_FOUND");
      assertThat(sameAnswer(theirs, job, none, unknown)).as(tool).isTrue();
      assertThat(sameAnswer(theirsModern, job, noneModern, unknown))
          .as(tool + ", 2026-07-28")
          .isTrue();
    }
    JsonNode mine = legacyTool(A, sessionA, "jobs_get_status", "{\"job_id\": \"" + job + "\"}");
    assertThat(mine.at("/result/structuredContent/status").asText()).isIn("pending", "running");
    legacyTool(A, sessionA, "jobs_cancel", "{\"job_id\": \"" + job + "\"}");
  }

  @Test
  void dynamicTools_anotherCallersTool_answersAsAnUnknownOne() throws Exception {
    String spec =
        "{\"tool_spec\": {\"name\": \"mine\", \"description\": \"d\","
            + " \"tool\": \"ownedwork__quick\"}}";
    String legacyName =
        legacyTool(A, sessionA, "register_tool", spec)
            .at("/result/structuredContent/tool_name")
            .asText();
    String modernName =
        modernTool(A, "register_tool", spec, "{}")
            .at("/result/structuredContent/tool_name")
            .asText();
    String unknown = "dyn__mine_zzzzzz";
    assertThat(legacyName).startsWith("dyn__mine_");
    assertThat(modernName).startsWith("dyn__mine_");

    ObjectNode call = JSON.createObjectNode().put("name", legacyName);
    ObjectNode callNone = JSON.createObjectNode().put("name", unknown);
    assertThat(
            sameAnswer(
                legacy(B, sessionB, "tools/call", call),
                legacyName,
                legacy(B, sessionB, "tools/call", callNone),
                unknown))
        .as("tools/call")
        .isTrue();
    assertThat(
            sameAnswer(
                modernTool(B, "call_tool", "{\"name\": \"" + modernName + "\"}", "{}"),
                modernName,
                modernTool(B, "call_tool", "{\"name\": \"" + unknown + "\"}", "{}"),
                unknown))
        .as("call_tool, 2026-07-28")
        .isTrue();
    for (String name : List.of(legacyName, modernName)) {
      String theirs = "{\"tool_name\": \"" + name + "\"}";
      String none = "{\"tool_name\": \"" + unknown + "\"}";
      assertThat(
              sameAnswer(
                  legacyTool(B, sessionB, "deregister_tool", theirs),
                  name,
                  legacyTool(B, sessionB, "deregister_tool", none),
                  unknown))
          .as("deregister_tool")
          .isTrue();
      assertThat(
              sameAnswer(
                  modernTool(B, "deregister_tool", theirs, "{}"),
                  name,
                  modernTool(B, "deregister_tool", none, "{}"),
                  unknown))
          .as("deregister_tool, 2026-07-28")
          .isTrue();
    }
    assertThat(
            legacyTool(B, sessionB, "list_dynamic_tools", "{}")
                .at("/result/structuredContent/count")
                .asInt())
        .isZero();
    assertThat(
            modernTool(B, "list_dynamic_tools", "{}", "{}")
                .at("/result/structuredContent/count")
                .asInt())
        .isZero();
    // A's tools are untouched; A removes them.
    assertThat(
            legacyTool(A, sessionA, "list_dynamic_tools", "{}")
                .at("/result/structuredContent/dynamic_tools/0/tool_name")
                .asText())
        .isEqualTo(legacyName);
    assertThat(
            modernTool(A, "list_dynamic_tools", "{}", "{}")
                .at("/result/structuredContent/dynamic_tools/0/tool_name")
                .asText())
        .isEqualTo(modernName);
    assertThat(
            legacyTool(A, sessionA, "deregister_tool", "{\"tool_name\": \"" + legacyName + "\"}")
                .at("/result/structuredContent/removed")
                .asBoolean())
        .isTrue();
    assertThat(
            modernTool(A, "deregister_tool", "{\"tool_name\": \"" + modernName + "\"}", "{}")
                .at("/result/structuredContent/removed")
                .asBoolean())
        .isTrue();
  }

  @Test
  void jobsCleanup_removesTheCallersOwnJobsOnly() throws Exception {
    String job =
        legacyTool(A, sessionA, "ownedwork__quick", "{}")
            .at("/result/structuredContent/job_id")
            .asText();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                legacyTool(A, sessionA, "jobs_get_status", "{\"job_id\": \"" + job + "\"}")
                    .at("/result/structuredContent/status")
                    .asText()
                    .equals("completed"));

    JsonNode cleanedByB = legacyTool(B, sessionB, "jobs_cleanup", "{\"older_than_hours\": 0}");
    JsonNode cleanedModern = modernTool(B, "jobs_cleanup", "{\"older_than_hours\": 0}", "{}");
    JsonNode mine = legacyTool(A, sessionA, "jobs_get_status", "{\"job_id\": \"" + job + "\"}");

    assertThat(cleanedByB.at("/result/structuredContent/removed").asInt()).isZero();
    assertThat(cleanedModern.at("/result/structuredContent/removed").asInt()).isZero();
    assertThat(mine.at("/result/structuredContent/status").asText()).isEqualTo("completed");
  }

  @Test
  void tasks_anotherCallersTask_answersAsAnUnknownTask() throws Exception {
    String task =
        modernTool(A, "ownedwork__slow", "{\"seconds\": 30}", TASKS).at("/result/taskId").asText();
    String unknown = UUID.randomUUID().toString();
    for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
      ObjectNode params = JSON.createObjectNode().put("taskId", task);
      ObjectNode unknownParams = JSON.createObjectNode().put("taskId", unknown);
      if (method.equals("tasks/update")) {
        params.putObject("inputResponses");
        unknownParams.putObject("inputResponses");
      }
      JsonNode theirs = modern(B, method, params, TASKS).body();
      JsonNode none = modern(B, method, unknownParams, TASKS).body();

      assertThat(theirs.at("/error/message").asText()).as(method).startsWith("Unknown task");
      assertThat(sameAnswer(theirs, task, none, unknown)).as(method).isTrue();
    }
    JsonNode mine =
        modern(A, "tasks/get", JSON.createObjectNode().put("taskId", task), TASKS).body();
    assertThat(mine.at("/result/status").asText()).isEqualTo("working");
    modern(A, "tasks/cancel", JSON.createObjectNode().put("taskId", task), TASKS);
  }

  @Test
  void workflows_anotherCallersRun_answersAsAnUnknownRun() throws Exception {
    JsonNode started =
        legacyTool(
            A, sessionA, "workflows_run", "{\"name\": \"gate\", \"idempotency_key\": \"k1\"}");
    String run = started.at("/result/structuredContent/run_id").asText();
    String unknown = UUID.randomUUID().toString();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> runStatus(A, sessionA, run).equals("awaiting_approval"));
    Map<String, String> calls = new LinkedHashMap<>();
    calls.put("workflows_get_status", "{\"run_id\": \"%s\"}");
    calls.put("workflows_cancel", "{\"run_id\": \"%s\"}");
    calls.put("workflows_approve", "{\"run_id\": \"%s\", \"approved\": true}");
    calls.put("workflows_resume", "{\"workflow_id\": \"%s\"}");
    for (Map.Entry<String, String> call : calls.entrySet()) {
      JsonNode theirs = legacyTool(B, sessionB, call.getKey(), call.getValue().formatted(run));
      JsonNode none = legacyTool(B, sessionB, call.getKey(), call.getValue().formatted(unknown));

      assertThat(theirs.at("/result/structuredContent/code").asText())
          .as(call.getKey())
          .isEqualTo("RUN_NOT_FOUND");
      assertThat(sameAnswer(theirs, run, none, unknown)).as(call.getKey()).isTrue();
    }
    JsonNode sameKey =
        legacyTool(
            B, sessionB, "workflows_run", "{\"name\": \"gate\", \"idempotency_key\": \"k1\"}");

    assertThat(sameKey.at("/result/structuredContent/run_id").asText())
        .as("another caller's run key names none of its runs")
        .isNotEqualTo(run);
    assertThat(sameKey.at("/result/structuredContent/reused").asBoolean()).isFalse();
    assertThat(runStatus(A, sessionA, run)).isEqualTo("awaiting_approval");
    legacyTool(A, sessionA, "workflows_cancel", "{\"run_id\": \"" + run + "\"}");
    legacyTool(
        B,
        sessionB,
        "workflows_cancel",
        "{\"run_id\": \"" + sameKey.at("/result/structuredContent/run_id").asText() + "\"}");
  }

  @Test
  void inputRound_anotherCallersRequestState_answersAsAForgedOne() throws Exception {
    JsonNode asked = modernTool(A, "ownedwork__ask_name", "{}", ELICIT).get("result");
    String state = asked.path("requestState").asText();
    String key = asked.path("inputRequests").fieldNames().next();
    ObjectNode retry = JSON.createObjectNode().put("name", "ownedwork__ask_name");
    retry.putObject("arguments");
    retry
        .putObject("inputResponses")
        .putObject(key)
        .put("action", "accept")
        .putObject("content")
        .put("name", "Ada");
    char last = state.charAt(state.length() - 1);
    String forgedState = state.substring(0, state.length() - 1) + (last == 'A' ? 'B' : 'A');

    Reply theirs = modern(B, "tools/call", retry.deepCopy().put("requestState", state), ELICIT);
    Reply forged =
        modern(B, "tools/call", retry.deepCopy().put("requestState", forgedState), ELICIT);
    Reply mine = modern(A, "tools/call", retry.deepCopy().put("requestState", state), ELICIT);

    assertThat(asked.path("resultType").asText()).isEqualTo("input_required");
    assertThat(theirs.body().path("error").isObject()).isTrue();
    assertThat(theirs.body().path("error")).isEqualTo(forged.body().path("error"));
    assertThat(theirs.status()).isEqualTo(forged.status());
    assertThat(mine.body().at("/result/structuredContent/message").asText())
        .isEqualTo("Hello, Ada!");
  }

  @Test
  void promptRound_anotherCallersRequestState_answersAsAForgedOne() throws Exception {
    String prompt = null;
    for (JsonNode p :
        modern(A, "prompts/list", JSON.createObjectNode(), "{}").body().at("/result/prompts")) {
      if (p.path("name").asText().endsWith("welcome")) {
        prompt = p.path("name").asText();
      }
    }
    ObjectNode get = JSON.createObjectNode().put("name", prompt);
    get.putObject("arguments");
    JsonNode asked = modern(A, "prompts/get", get.deepCopy(), ELICIT).body().get("result");
    String state = asked.path("requestState").asText();
    String key = asked.path("inputRequests").fieldNames().next();
    ObjectNode retry = get.deepCopy();
    retry
        .putObject("inputResponses")
        .putObject(key)
        .put("action", "accept")
        .putObject("content")
        .put("who", "Ada");
    char last = state.charAt(state.length() - 1);
    String forgedState = state.substring(0, state.length() - 1) + (last == 'A' ? 'B' : 'A');

    Reply theirs = modern(B, "prompts/get", retry.deepCopy().put("requestState", state), ELICIT);
    Reply forged =
        modern(B, "prompts/get", retry.deepCopy().put("requestState", forgedState), ELICIT);
    Reply mine = modern(A, "prompts/get", retry.deepCopy().put("requestState", state), ELICIT);

    assertThat(asked.path("resultType").asText()).isEqualTo("input_required");
    assertThat(theirs.body().path("error").isObject()).isTrue();
    assertThat(theirs.body().path("error")).isEqualTo(forged.body().path("error"));
    assertThat(theirs.status()).isEqualTo(forged.status());
    assertThat(mine.body().toString()).contains("Welcome, Ada!");
  }

  @Test
  void callTool_anotherCallersGroupHandle_answersAsABogusOne() throws Exception {
    String handle =
        modernTool(
                A,
                "activate_tool_group",
                "{\"skill_name\": \"ownedwork\", \"group_name\": \"extra\"}",
                "{}")
            .at("/result/structuredContent/group_handle")
            .asText();
    String call = "{\"name\": \"ownedwork__hidden\", \"group_handle\": \"%s\"}";

    JsonNode theirs = modernTool(B, "call_tool", call.formatted(handle), "{}");
    JsonNode bogus = modernTool(B, "call_tool", call.formatted("not-a-handle"), "{}");
    JsonNode mine = modernTool(A, "call_tool", call.formatted(handle), "{}");

    assertThat(handle).isNotBlank();
    assertThat(theirs.at("/result/structuredContent/code").asText())
        .isEqualTo("GROUP_NOT_ACTIVATED");
    assertThat(theirs.path("result")).isEqualTo(bogus.path("result"));
    assertThat(mine.at("/result/isError").asBoolean()).isFalse();
  }

  // ---- The audit trail ----

  @Test
  void diagnostics_showACallerItsOwnCalls_anOperatorEveryones() throws Exception {
    legacyTool(A, sessionA, "ownedwork__hidden_missing", "{}");
    modernTool(A, "list_roots", "{}", "{}");
    legacyTool(B, sessionB, "search_skills", "{}");
    String recent = diagnosticsTool(sessionB, "recent_calls");
    String metrics = diagnosticsTool(sessionB, "tool_metrics");

    JsonNode bSees = legacyTool(B, sessionB, recent, "{\"limit\": 100}");
    JsonNode bMetrics = legacyTool(B, sessionB, metrics, "{}");
    JsonNode opsSees = legacyTool(OPS, sessionOps, recent, "{\"limit\": 100}");
    JsonNode opsMetrics = legacyTool(OPS, sessionOps, metrics, "{}");
    JsonNode bModern = modernTool(B, recent, "{\"limit\": 100}", "{}");

    assertThat(bSees.at("/result/structuredContent/calls").findValuesAsText("tool"))
        .contains("search_skills")
        .doesNotContain("ownedwork__hidden_missing", "list_roots");
    assertThat(bModern.at("/result/structuredContent/calls").findValuesAsText("tool"))
        .doesNotContain("ownedwork__hidden_missing", "list_roots");
    assertThat(bMetrics.at("/result/structuredContent/tools").findValuesAsText("tool"))
        .contains("search_skills")
        .doesNotContain("ownedwork__hidden_missing", "list_roots");
    assertThat(opsSees.at("/result/structuredContent/calls").findValuesAsText("tool"))
        .contains("search_skills", "ownedwork__hidden_missing", "list_roots");
    assertThat(opsMetrics.at("/result/structuredContent/tools").findValuesAsText("tool"))
        .contains("search_skills", "ownedwork__hidden_missing", "list_roots");
  }

  // ---- The client ----

  record Reply(int status, JsonNode body) {}

  /** Whether two answers are the same once each names its own id as {@code <id>}. */
  private static boolean sameAnswer(JsonNode theirs, String theirId, JsonNode none, String noneId) {
    String a = withoutRequestId(theirs).toString().replace(theirId, "<id>");
    String b = withoutRequestId(none).toString().replace(noneId, "<id>");
    return a.equals(b);
  }

  private static JsonNode withoutRequestId(JsonNode reply) {
    ObjectNode copy = reply.deepCopy();
    copy.remove("id");
    return copy;
  }

  private static void assertSessionWorks(String token, String session) throws Exception {
    JsonNode tools = legacy(token, session, "tools/list", JSON.createObjectNode());
    assertThat(tools.at("/result/tools").size()).isPositive();
  }

  private static String runStatus(String token, String session, String run) throws Exception {
    return legacyTool(token, session, "workflows_get_status", "{\"run_id\": \"" + run + "\"}")
        .at("/result/structuredContent/status")
        .asText();
  }

  /** The listed name of a diagnostics tool, as the session lists it. */
  private static String diagnosticsTool(String session, String tool) throws Exception {
    for (JsonNode t :
        legacy(B, session, "tools/list", JSON.createObjectNode()).at("/result/tools")) {
      String name = t.path("name").asText();
      if (name.endsWith("__" + tool) || name.equals(tool)) {
        return name;
      }
    }
    throw new AssertionError("no tool " + tool + " is listed");
  }

  /** Opens a 2025-11-25 session with {@code token}; returns its id. */
  private static String open(String token) throws Exception {
    return McpWire.openSession(server.uri(), token, "caller-isolation");
  }

  private static JsonNode legacy(String token, String session, String method, ObjectNode params)
      throws Exception {
    return post(token, session, method, params, LEGACY, IDS.incrementAndGet()).body();
  }

  private static JsonNode legacyTool(String token, String session, String tool, String args)
      throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", JSON.readTree(args));
    return legacy(token, session, "tools/call", params);
  }

  private static Reply post(
      String token, String session, String method, ObjectNode params, String version, int id)
      throws Exception {
    ObjectNode message =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    message.set("params", params);
    HttpRequest.Builder b =
        request(token).header("MCP-Protocol-Version", version).POST(body(message));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    HttpResponse<String> response = send(b.build());
    return new Reply(response.statusCode(), parse(response.body()));
  }

  /** A request to the REST API at {@code path} as {@code token}'s caller, without a body. */
  private static Reply rest(String token, String method, String path) throws Exception {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(server.uri().resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build());
    return new Reply(response.statusCode(), parse(response.body()));
  }

  private static Reply get(String token, String session, String lastEventId) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.uri())
            .timeout(Duration.ofSeconds(10))
            .header("Accept", "text/event-stream")
            .header("Authorization", "Bearer " + token)
            .header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", LEGACY)
            .GET();
    if (lastEventId != null) {
      b.header("Last-Event-ID", lastEventId);
    }
    // A stream that opened would never end: the wait is bounded, so that fails instead of hanging.
    HttpResponse<String> response =
        HTTP.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
            .get(10, TimeUnit.SECONDS);
    return new Reply(response.statusCode(), parse(response.body()));
  }

  private static Reply delete(String token, String session) throws Exception {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(server.uri())
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", LEGACY)
                .DELETE()
                .build());
    return new Reply(response.statusCode(), parse(response.body()));
  }

  private static ObjectNode meta(String capabilities) throws Exception {
    ObjectNode meta = JSON.createObjectNode();
    meta.put("io.modelcontextprotocol/protocolVersion", MODERN);
    meta.set("io.modelcontextprotocol/clientCapabilities", JSON.readTree(capabilities));
    meta.putObject("io.modelcontextprotocol/clientInfo")
        .put("name", "caller-isolation")
        .put("version", "1");
    return meta;
  }

  /** A 2026-07-28 request with its mirrored headers. */
  private static Reply modern(String token, String method, ObjectNode params, String caps)
      throws Exception {
    params.set("_meta", meta(caps));
    ObjectNode message =
        JSON.createObjectNode()
            .put("jsonrpc", "2.0")
            .put("id", IDS.incrementAndGet())
            .put("method", method);
    message.set("params", params);
    HttpRequest.Builder b =
        request(token)
            .header("MCP-Protocol-Version", MODERN)
            .header("Mcp-Method", method)
            .POST(body(message));
    String name =
        params.path("name").isTextual()
            ? params.get("name").asText()
            : params.path("taskId").asText(null);
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    HttpResponse<String> response = send(b.build());
    return new Reply(response.statusCode(), parse(response.body()));
  }

  private static JsonNode modernTool(String token, String tool, String args, String caps)
      throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", JSON.readTree(args));
    return modern(token, "tools/call", params, caps).body();
  }

  private static HttpRequest.Builder request(String token) {
    return McpWire.request(server.uri(), token);
  }

  private static HttpRequest.BodyPublisher body(JsonNode message) {
    return McpWire.body(message);
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return McpWire.send(request);
  }

  private static JsonNode parse(String text) throws Exception {
    return McpWire.parse(text);
  }
}
