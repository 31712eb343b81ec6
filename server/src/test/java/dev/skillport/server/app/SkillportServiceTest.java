package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CallOutcome;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillportServiceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path root;
  private SkillportService service;
  private final List<String> notifications = new CopyOnWriteArrayList<>();

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @BeforeEach
  void setUp() throws IOException {
    write(
        root.resolve("geo-tools/SKILL.md"),
        """
        ---
        name: geo-tools
        description: Geometry helpers for polygon meshes
        metadata:
          dcc-mcp:
            tags: [mesh, modeling]
            search-hint: polygon cube extrude
            tools: tools.yaml
        ---
        Use make_cube to create cubes.
        """);
    write(
        root.resolve("geo-tools/tools.yaml"),
        """
        tools:
          - name: make_cube
            description: Create a cube
            input_schema:
              type: object
              properties:
                size: {type: number, minimum: 0}
                name: {type: string}
              required: [size]
            next-tools:
              on-success: [geo_tools__describe]
          - name: describe
            description: Describe the scene
            handler: test.describe
          - name: explode
            description: Fails on purpose
            group: danger
          - name: slow
            description: Sleeps
            timeout_hint_secs: 1
        groups:
          - name: danger
            description: Risky tools
        """);
    write(
        root.resolve("geo-tools/scripts/make_cube.py"),
        """
        import json, sys
        args = json.load(sys.stdin)
        print(json.dumps({"success": True, "size": args["size"], "argv": sys.argv[1:]}))
        """);
    write(root.resolve("geo-tools/scripts/explode.sh"), "echo boom >&2\nexit 3\n");
    write(root.resolve("geo-tools/scripts/slow.sh"), "sleep 30 &\nsleep 30\n");
    write(
        root.resolve("notes/SKILL.md"),
        """
        ---
        name: notes
        description: Take notes in markdown files
        ---
        """);
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    assertThat(loaded.skills()).hasSize(2);
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register(
        "test.describe",
        inv -> ToolResult.structured(JSON.createObjectNode().put("tool", inv.tool())));
    service =
        new SkillportService(
            new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())),
            handlers,
            new ScriptToolRunner(Duration.ofSeconds(10), 1 << 20, 1 << 16),
            List.of(),
            100);
  }

  private List<String> listedNames(SessionState s) throws Exception {
    List<String> names = new ArrayList<>();
    service.listTools(s, null).get("tools").forEach(t -> names.add(t.get("name").asText()));
    return names;
  }

  private ObjectNode call(SessionState s, String tool, String args) throws Exception {
    return service.callTool(s, tool, JSON.readTree(args), ToolContext.NONE);
  }

  @Test
  void listTools_newSession_showsCoreToolsAndSkillStubs() throws Exception {
    SessionState s = service.openSession(notifications::add);
    assertThat(listedNames(s))
        .startsWith("search_skills", "list_skills", "get_skill_info", "load_skill")
        .contains("__skill__geo-tools", "__skill__notes")
        .doesNotContain("make_cube");
  }

  @Test
  void loadSkill_notifiesAndListsToolsWithGroupStub() throws Exception {
    SessionState s = service.openSession(notifications::add);
    ObjectNode result = call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    assertThat(result.get("isError").asBoolean()).isFalse();
    assertThat(result.at("/structuredContent/loaded").asBoolean()).isTrue();
    assertThat(result.at("/structuredContent/newly_loaded/0").asText()).isEqualTo("geo-tools");
    assertThat(notifications)
        .containsExactly(
            "notifications/tools/list_changed",
            "notifications/prompts/list_changed",
            "notifications/resources/list_changed");
    assertThat(listedNames(s))
        .contains("make_cube", "describe", "slow", "__group__danger", "__skill__notes")
        .doesNotContain("explode", "__skill__geo-tools");
  }

  @Test
  void sessions_doNotSeeEachOthersLoads() throws Exception {
    SessionState a = service.openSession(n -> {});
    SessionState b = service.openSession(n -> {});
    call(a, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    assertThat(listedNames(a)).contains("make_cube");
    assertThat(listedNames(b)).doesNotContain("make_cube").contains("__skill__geo-tools");
  }

  @Test
  void callTool_scriptTool_returnsStructuredResultAndNextTools() throws Exception {
    SessionState s = service.openSession(n -> {});
    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    ObjectNode result = call(s, "make_cube", "{\"size\": 2, \"name\": \"box\"}");
    assertThat(result.get("isError").asBoolean()).as(result.toString()).isFalse();
    assertThat(result.at("/structuredContent/size").asInt()).isEqualTo(2);
    assertThat(result.at("/structuredContent/argv").toString()).contains("--size", "--name", "box");
    assertThat(result.at("/_meta/dcc.next_tools/on_success/0").asText())
        .isEqualTo("geo_tools__describe");
  }

  @Test
  void callTool_javaHandler_byQualifiedName() throws Exception {
    SessionState s = service.openSession(n -> {});
    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    ObjectNode result = call(s, "geo_tools__describe", "{}");
    assertThat(result.get("isError").asBoolean()).isFalse();
    assertThat(result.at("/structuredContent/tool").asText()).isEqualTo("describe");
  }

  @Test
  void callTool_invalidArguments_listsEveryViolation() throws Exception {
    SessionState s = service.openSession(n -> {});
    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    ObjectNode result = call(s, "make_cube", "{\"size\": -1, \"name\": 5}");
    assertThat(result.get("isError").asBoolean()).isTrue();
    String message = result.at("/structuredContent/message").asText();
    assertThat(result.at("/structuredContent/code").asText()).isEqualTo("INVALID_ARGUMENTS");
    assertThat(message).contains("size").contains("name");
  }

  @Test
  void callTool_stubsAndInactiveGroups_areToolErrors() throws Exception {
    SessionState s = service.openSession(n -> {});
    JsonNode stub = call(s, "__skill__geo-tools", "{}");
    assertThat(stub.get("isError").asBoolean()).isTrue();
    assertThat(stub.at("/structuredContent/code").asText()).isEqualTo("SKILL_NOT_LOADED");
    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    JsonNode grouped = call(s, "explode", "{}");
    assertThat(grouped.at("/structuredContent/code").asText()).isEqualTo("GROUP_NOT_ACTIVATED");
  }

  @Test
  void callTool_failingScript_isErrorWithStderrTail() throws Exception {
    SessionState s = service.openSession(n -> {});
    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    call(s, "activate_tool_group", "{\"group\":\"danger\"}");
    JsonNode result = call(s, "explode", "{}");
    assertThat(result.get("isError").asBoolean()).isTrue();
    assertThat(result.at("/content/0/text").asText())
        .contains("exited with code 3")
        .contains("boom");
  }

  @Test
  void callTool_hangingScript_isKilledAtItsTimeout() throws Exception {
    SessionState s = service.openSession(n -> {});
    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    long before = ProcessHandle.current().descendants().count();
    JsonNode result = call(s, "slow", "{}");
    assertThat(result.at("/structuredContent/code").asText()).isEqualTo("SCRIPT_TIMEOUT");
    assertThat(ProcessHandle.current().descendants().count()).isLessThanOrEqualTo(before);
  }

  @Test
  void callTool_unknownName_isProtocolError() {
    SessionState s = service.openSession(n -> {});
    assertThatThrownBy(() -> call(s, "no_such_tool", "{}"))
        .isInstanceOf(UnknownToolException.class)
        .hasMessageContaining("no_such_tool");
  }

  @Test
  void searchSkills_keywordPrefixAndTypo_findSkill() throws Exception {
    SessionState s = service.openSession(n -> {});
    for (String q : List.of("extrude", "poly", "polygn")) {
      JsonNode result = call(s, "search_skills", "{\"query\":\"" + q + "\"}");
      assertThat(result.at("/structuredContent/skills/0/name").asText())
          .as(q)
          .isEqualTo("geo-tools");
    }
  }

  @Test
  void unloadSkill_restoresStubAndIsNoOpTheSecondTime() throws Exception {
    SessionState s = service.openSession(notifications::add);
    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    JsonNode first = call(s, "unload_skill", "{\"skill_name\":\"geo-tools\"}");
    assertThat(first.at("/structuredContent/unloaded").asBoolean()).isTrue();
    assertThat(first.at("/structuredContent/tools_removed").asInt()).isEqualTo(3);
    assertThat(listedNames(s)).contains("__skill__geo-tools").doesNotContain("make_cube");
    JsonNode second = call(s, "unload_skill", "{\"skill_name\":\"geo-tools\"}");
    assertThat(second.get("isError").asBoolean()).isFalse();
    assertThat(second.at("/structuredContent/unloaded").asBoolean()).isFalse();
  }

  @Test
  void catalogSwap_notifiesEverySession() {
    List<String> a = new CopyOnWriteArrayList<>();
    service.openSession(a::add);
    CatalogHolder holder = new CatalogHolder(Catalog.empty());
    SkillportService other =
        new SkillportService(
            holder,
            new HandlerRegistry(),
            new ScriptToolRunner(Duration.ofSeconds(5), 1024, 1024),
            List.of(),
            10);
    List<String> b = new CopyOnWriteArrayList<>();
    other.openSession(b::add);
    holder.swap(Catalog.of(2, List.of(), List.of()));
    assertThat(b)
        .containsExactly(
            "notifications/tools/list_changed",
            "notifications/prompts/list_changed",
            "notifications/resources/list_changed");
    assertThat(a).isEmpty();
  }

  @Test
  void call_answersWhatTheCallCameTo_andTheAuditRecordsEachKind() throws Exception {
    SessionState s = service.openSession(n -> {});
    CallOutcome searched =
        service.call(
            s,
            "search_skills",
            JSON.readTree("{\"query\":\"cube\"}"),
            ToolContext.NONE,
            CallMeta.NONE);
    assertThat(searched).isInstanceOf(CallOutcome.Completed.class);

    CallOutcome stub =
        service.call(s, "__skill__geo-tools", JSON.readTree("{}"), ToolContext.NONE, CallMeta.NONE);
    assertThat(stub)
        .isInstanceOfSatisfying(
            CallOutcome.Refused.class,
            r -> assertThat(r.code()).isEqualTo(ToolFailureCode.SKILL_NOT_LOADED));

    call(s, "load_skill", "{\"skill_name\":\"geo-tools\"}");
    CallOutcome invalid =
        service.call(
            s, "make_cube", JSON.readTree("{\"size\":-1}"), ToolContext.NONE, CallMeta.NONE);
    assertThat(invalid)
        .isInstanceOfSatisfying(
            CallOutcome.Refused.class,
            r -> {
              assertThat(r.code()).isEqualTo(ToolFailureCode.INVALID_ARGUMENTS);
              // Rendered, a refusal keeps the tool's follow-up hints as before.
              assertThat(SkillportService.render(r, CallMeta.NONE).get("isError").asBoolean())
                  .isTrue();
            });
    CallOutcome failed =
        service.call(s, "explode", JSON.readTree("{}"), ToolContext.NONE, CallMeta.NONE);
    assertThat(failed.auditWord()).isEqualTo("GROUP_NOT_ACTIVATED");

    CallMeta async = new CallMeta(null, true, null, update -> {});
    CallOutcome queued =
        service.call(s, "make_cube", JSON.readTree("{\"size\":2}"), ToolContext.NONE, async);
    assertThat(queued).isInstanceOf(CallOutcome.Queued.class);
    JobRecord job = ((CallOutcome.Queued) queued).job();
    JobRecord finished =
        service.jobs().completion(job.id()).orElseThrow().get(20, TimeUnit.SECONDS);
    assertThat(finished.status()).isEqualTo(JobStatus.COMPLETED);
    assertThat(finished.result().at("/structuredContent/size").asInt()).isEqualTo(2);
    assertThat(service.jobs().completion(job.id()).orElseThrow()).isCompleted();
    assertThat(service.jobs().completion("no-such-job")).isEmpty();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(service.calls().recent())
                    .extracting(AuditEntry::tool, AuditEntry::outcome)
                    .contains(
                        tuple("search_skills", "ok"),
                        tuple("__skill__geo-tools", "SKILL_NOT_LOADED"),
                        tuple("make_cube", "INVALID_ARGUMENTS"),
                        tuple("explode", "GROUP_NOT_ACTIVATED"),
                        tuple("make_cube", "queued"),
                        tuple("make_cube (job)", "ok")));
  }
}
