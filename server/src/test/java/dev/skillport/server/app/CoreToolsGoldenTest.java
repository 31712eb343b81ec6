package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fixes the result shape of every core tool with a golden file: each tool is called in named
 * scenarios on the skills under {@code golden/skills}, and the results (paths, times and job ids
 * replaced by placeholders) must equal {@code golden/core-tools/<tool>.json} exactly. Field names,
 * types and values are all compared, so a renamed, retyped or dropped upstream field fails.
 *
 * <p>After a deliberate change, {@code -Dgolden.update=true} rewrites the files under {@code
 * src/test/resources}; the diff then shows what changed on the wire.
 */
class CoreToolsGoldenTest {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Path SOURCE_GOLDEN = Path.of("src/test/resources/golden/core-tools");

  @TempDir Path root;
  private SkillportService service;

  @BeforeEach
  void setUp() throws Exception {
    copy(resource("golden/skills"), root);
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register(
        "golden.echo", inv -> ToolResult.structured(JSON.createObjectNode().put("ok", true)));
    handlers.register(
        "golden.render", inv -> ToolResult.structured(JSON.createObjectNode().put("frames", 24)));
    service =
        new SkillportService(
            new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())),
            handlers,
            new ScriptToolRunner(Duration.ofSeconds(20), 1 << 20, 1 << 16),
            List.of(),
            100);
  }

  /** Scenario name → {arguments, result}, in call order. */
  private final class Scenarios {
    final Map<String, JsonNode> calls = new LinkedHashMap<>();
    final String tool;

    Scenarios(String tool) {
      this.tool = tool;
    }

    JsonNode call(String scenario, SessionState session, String args) throws Exception {
      return call(scenario, session, args, ToolContext.NONE);
    }

    JsonNode call(String scenario, SessionState session, String args, ToolContext ctx)
        throws Exception {
      JsonNode arguments = JSON.readTree(args);
      ObjectNode result = service.callTool(session, tool, arguments, ctx);
      ObjectNode recorded = result.deepCopy();
      JsonNode text = recorded.at("/content/0/text");
      if (recorded.get("content").size() == 1
          && text.isTextual()
          && recorded.has("structuredContent")
          && text.asText().equals(recorded.get("structuredContent").toString())) {
        // The text is the structured result rendered as JSON; the file says so instead of
        // repeating it.
        ((ObjectNode) recorded.get("content").get(0)).put("text", "<structuredContent as JSON>");
      }
      ObjectNode entry = JSON.createObjectNode();
      entry.set("arguments", arguments);
      entry.set("result", recorded);
      calls.put(scenario, entry);
      return result;
    }

    void assertGolden() throws IOException {
      ObjectNode doc = JSON.createObjectNode();
      calls.forEach(doc::set);
      String actual = normalize(JSON.writeValueAsString(doc)) + "\n";
      String file = tool + ".json";
      if (Boolean.getBoolean("golden.update")) {
        Files.createDirectories(SOURCE_GOLDEN);
        Files.writeString(SOURCE_GOLDEN.resolve(file), actual);
        return;
      }
      String expected;
      try {
        expected = Files.readString(resource("golden/core-tools/" + file));
      } catch (IOException | IllegalStateException e) {
        throw new AssertionError("no golden file " + file + "; run with -Dgolden.update=true", e);
      }
      assertThat(actual)
          .as("wire shape of %s (golden/core-tools/%s)", tool, file)
          .isEqualTo(expected);
    }
  }

  /**
   * Replaces what differs between runs: the scratch folder, times, job ids, dynamic tool names'
   * random suffixes and their time to live.
   */
  private String normalize(String json) throws IOException {
    String out =
        json.replace(root.toRealPath().toString(), "<root>").replace(root.toString(), "<root>");
    out = out.replaceAll("dyn__(\\w+?)_[0-9a-f]{6}\\b", "dyn__$1_<suffix>");
    // A dynamic tool's time to live counts down while the test runs.
    out = out.replaceAll("\"expires_in_sec\" : \\d+", "\"expires_in_sec\" : \"<seconds>\"");
    out = out.replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z", "<time>");
    out =
        out.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<job-id>");
    return out;
  }

  private SessionState session() {
    return service.openSession(n -> {});
  }

  @Test
  void searchSkills() throws Exception {
    Scenarios s = new Scenarios("search_skills");
    SessionState session = session();
    s.call("query", session, "{\"query\":\"cube\"}");
    s.call("browse", session, "{}");
    s.call("filters", session, "{\"query\":\"mesh\",\"tags\":[\"geometry\"],\"limit\":1}");
    s.assertGolden();
  }

  @Test
  void listSkills() throws Exception {
    Scenarios s = new Scenarios("list_skills");
    SessionState session = session();
    service.callTool(
        session, "load_skill", JSON.readTree("{\"skill_name\":\"mesh-tools\"}"), ToolContext.NONE);
    s.call("all", session, "{}");
    s.call("loaded", session, "{\"status\":\"loaded\"}");
    s.call("error", session, "{\"status\":\"error\"}");
    s.call(
        "page_with_fields",
        session,
        "{\"fields\":[\"description\",\"tool_names\",\"tags\",\"runtime\"],\"limit\":1,\"offset\":1}");
    s.call("unknown_field", session, "{\"fields\":[\"secret\"]}");
    s.assertGolden();
  }

  @Test
  void getSkillInfo() throws Exception {
    Scenarios s = new Scenarios("get_skill_info");
    SessionState session = session();
    s.call("unloaded", session, "{\"skill_name\":\"mesh-tools\"}");
    service.callTool(
        session,
        "load_skill",
        JSON.readTree("{\"skill_name\":\"waiting-skill\"}"),
        ToolContext.NONE);
    s.call("pending", session, "{\"skill_name\":\"waiting-skill\"}");
    s.call("unknown", session, "{\"skill_name\":\"nope\"}");
    s.assertGolden();
  }

  @Test
  void loadSkill() throws Exception {
    Scenarios s = new Scenarios("load_skill");
    SessionState session = session();
    s.call("with_dependency", session, "{\"skill_name\":\"mesh-tools\"}");
    s.call("again", session, "{\"skill_name\":\"mesh-tools\"}");
    s.call("tool_group", session(), "{\"skill_name\":\"mesh-tools\",\"tool_group\":\"modeling\"}");
    s.call("partial", session(), "{\"skill_names\":[\"base-utils\",\"ghost-skill\"]}");
    s.call("refused", session(), "{\"skill_name\":\"waiting-skill\"}");
    s.assertGolden();
  }

  @Test
  void unloadSkill() throws Exception {
    Scenarios s = new Scenarios("unload_skill");
    SessionState session = session();
    service.callTool(
        session, "load_skill", JSON.readTree("{\"skill_name\":\"mesh-tools\"}"), ToolContext.NONE);
    s.call("loaded", session, "{\"skill_name\":\"mesh-tools\"}");
    s.call("not_loaded", session, "{\"skill_name\":\"mesh-tools\"}");
    s.assertGolden();
  }

  @Test
  void activateAndDeactivateToolGroup() throws Exception {
    Scenarios on = new Scenarios("activate_tool_group");
    Scenarios off = new Scenarios("deactivate_tool_group");
    SessionState session = session();
    service.callTool(
        session, "load_skill", JSON.readTree("{\"skill_name\":\"mesh-tools\"}"), ToolContext.NONE);
    on.call("group_name", session, "{\"group_name\":\"modeling\"}");
    on.call("already_active", session, "{\"group\":\"modeling\",\"skill_name\":\"mesh-tools\"}");
    on.call("unknown", session, "{\"group_name\":\"lighting\"}");
    off.call("group_name", session, "{\"group_name\":\"modeling\"}");
    off.call("already_inactive", session, "{\"group_name\":\"modeling\"}");
    on.assertGolden();
    off.assertGolden();
  }

  @Test
  void searchTools() throws Exception {
    Scenarios s = new Scenarios("search_tools");
    SessionState session = session();
    s.call("unloaded_skill", session, "{\"query\":\"bevel cube\"}");
    service.callTool(
        session, "load_skill", JSON.readTree("{\"skill_name\":\"mesh-tools\"}"), ToolContext.NONE);
    s.call("loaded_skill", session, "{\"query\":\"bevel cube\"}");
    s.call("include_disabled", session, "{\"query\":\"bevel\",\"include_disabled\":true}");
    s.call("include_stubs", session, "{\"query\":\"bevel\",\"include_stubs\":true}");
    s.call("dcc_filter", session, "{\"query\":\"cube\",\"dcc\":\"maya\"}");
    s.assertGolden();
  }

  @Test
  void searchTools_enabledAndDisabledTools_areNamedByTheQualifiedNameThatCallsThem()
      throws Exception {
    SessionState session = session();
    service.callTool(
        session, "load_skill", JSON.readTree("{\"skill_name\":\"mesh-tools\"}"), ToolContext.NONE);

    JsonNode found =
        service.callTool(
            session,
            "search_tools",
            JSON.readTree("{\"query\":\"bevel cube\",\"include_disabled\":true}"),
            ToolContext.NONE);

    Map<String, Boolean> enabled = new LinkedHashMap<>();
    found
        .at("/structuredContent/tools")
        .forEach(t -> enabled.put(t.path("name").asText(), t.path("enabled").asBoolean()));
    assertThat(enabled)
        .containsEntry("mesh-tools__create_cube", true)
        .containsEntry("mesh-tools__bevel_edges", false);
    service.callTool(
        session,
        "activate_tool_group",
        JSON.readTree("{\"group_name\":\"modeling\"}"),
        ToolContext.NONE);
    JsonNode called =
        service.callTool(session, "mesh-tools__bevel_edges", JSON.readTree("{}"), ToolContext.NONE);
    assertThat(called.path("isError").asBoolean()).as(called.toString()).isFalse();
    assertThat(called.at("/structuredContent/ok").asBoolean()).isTrue();
  }

  @Test
  void dynamicTools() throws Exception {
    SessionState session = session();
    Scenarios register = new Scenarios("register_tool");
    Scenarios list = new Scenarios("list_dynamic_tools");
    Scenarios deregister = new Scenarios("deregister_tool");
    String name =
        register
            .call(
                "calls_a_skill_tool",
                session,
                "{\"tool_spec\":{\"name\":\"bevel_twice\",\"description\":\"Bevels with two"
                    + " segments\",\"tool\":\"mesh-tools__bevel_edges\",\"arguments\":{\"segments\":2},"
                    + "\"parameters\":{\"width\":{\"type\":\"number\"}},\"ttl_secs\":600}}")
            .at("/structuredContent/tool_name")
            .asText();
    register.call(
        "code_not_allowed",
        session,
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"code\":\"return 1\"}}");
    register.call(
        "unknown_tool",
        session,
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"tool\":\"mesh-tools__nope\"}}");
    register.call("missing_spec", session, "{}");
    list.call("one", session, "{}");
    deregister.call("removed", session, "{\"tool_name\":\"" + name + "\"}");
    deregister.call("unknown", session, "{\"tool_name\":\"" + name + "\"}");
    list.call("none", session, "{}");
    register.assertGolden();
    list.assertGolden();
    deregister.assertGolden();
  }

  @Test
  void listRoots() throws Exception {
    Scenarios s = new Scenarios("list_roots");
    s.call("client_without_roots", session(), "{}");
    ToolContext withRoots =
        new ToolContext() {
          @Override
          public void progress(double progress, Double total, String message) {}

          @Override
          public void log(String level, String message) {}

          @Override
          public boolean isCancelled() {
            return false;
          }

          @Override
          public boolean clientSupports(String name) {
            return name.equals("roots");
          }

          @Override
          public JsonNode request(String method, JsonNode params) {
            try {
              return JSON.readTree(
                  "{\"roots\":[{\"uri\":\"file:///work/project\",\"name\":\"project\"}]}");
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
          }
        };
    s.call("client_with_roots", session(), "{}", withRoots);
    s.assertGolden();
  }

  @Test
  void jobs() throws Exception {
    Scenarios status = new Scenarios("jobs_get_status");
    Scenarios cancel = new Scenarios("jobs_cancel");
    Scenarios cleanup = new Scenarios("jobs_cleanup");
    SessionState session = session();
    service.callTool(
        session, "load_skill", JSON.readTree("{\"skill_name\":\"mesh-tools\"}"), ToolContext.NONE);
    JsonNode queued =
        service.callTool(
            session, "render_frames", JSON.readTree("{}"), ToolContext.NONE, CallMeta.NONE);
    String id = queued.at("/structuredContent/job_id").asText();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> service.jobs().status(id).orElseThrow().status().terminal());
    status.call("default_includes_result", session, "{\"job_id\":\"" + id + "\"}");
    status.call("without_result", session, "{\"job_id\":\"" + id + "\",\"include_result\":false}");
    status.call(
        "with_logs",
        session,
        "{\"job_id\":\"" + id + "\",\"include_result\":false,\"include_logs\":true}");
    status.call("unknown", session, "{\"job_id\":\"nope\"}");
    cancel.call("finished_job", session, "{\"job_id\":\"" + id + "\"}");
    cancel.call("unknown", session, "{\"job_id\":\"nope\"}");
    cleanup.call("recent_jobs_stay", session, "{}");
    cleanup.call("everything_finished", session, "{\"older_than_hours\":0}");
    status.assertGolden();
    cancel.assertGolden();
    cleanup.assertGolden();
  }

  private static Path resource(String name) throws IOException {
    var url = CoreToolsGoldenTest.class.getClassLoader().getResource(name);
    if (url == null) {
      throw new IOException("missing test resource " + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.writeString(target, Files.readString(p, StandardCharsets.UTF_8));
        }
      }
    }
  }
}
