package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MemoryJobStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code register_tool}, {@code deregister_tool} and {@code list_dynamic_tools} (decision 0060):
 * upstream's wire shapes, ownership by caller and session, validation against the tool's own schema
 * and the target's, the target's guards, and a stateless {@code tools/list} that never changes.
 */
class DynamicToolsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GREET =
      "{\"tool_spec\":{\"name\":\"hello_bob\",\"description\":\"Greets Bob\","
          + "\"tool\":\"greeter__greet\",\"arguments\":{\"name\":\"Bob\"},"
          + "\"parameters\":{\"punct\":{\"type\":\"string\"}}}}";

  @TempDir Path root;
  private SkillportService service;
  private CallGuard guard;

  @AfterEach
  void stop() {
    if (service != null) {
      service.jobs().close();
    }
  }

  @Test
  void session_registerCallListDeregister_upstreamShapes() throws Exception {
    SkillportService s = service(false);
    SessionState session = s.openSession(m -> {});
    ToolContext a = as("token:aaaa");

    JsonNode reg = structured(s.callTool(session, "register_tool", json(GREET), a));
    String name = reg.path("tool_name").asText();
    assertThat(reg.path("success").asBoolean()).isTrue();
    assertThat(name).matches("dyn__hello_bob_[0-9a-f]{6}");
    assertThat(reg.path("expires_in_sec").asLong()).isEqualTo(3600);
    assertThat(reg.path("message").asText()).contains(name);

    ObjectNode called = s.callTool(session, name, json("{\"punct\":\"!\"}"), a);
    assertThat(called.path("isError").asBoolean()).as(called.toString()).isFalse();
    assertThat(structured(called)).isEqualTo(json("{\"name\":\"Bob\",\"punct\":\"!\"}"));
    // A call's own arguments win over the preset ones.
    assertThat(structured(s.callTool(session, name, json("{\"name\":\"Ann\"}"), a)))
        .isEqualTo(json("{\"name\":\"Ann\"}"));

    JsonNode list = structured(s.callTool(session, "list_dynamic_tools", json("{}"), a));
    assertThat(list.path("count").asInt()).isEqualTo(1);
    JsonNode entry = list.path("dynamic_tools").get(0);
    assertThat(entry.path("tool_name").asText()).isEqualTo(name);
    assertThat(entry.path("original_name").asText()).isEqualTo("hello_bob");
    assertThat(entry.path("description").asText()).isEqualTo("Greets Bob");
    assertThat(entry.path("read_only_hint").asBoolean()).isTrue();
    assertThat(entry.path("destructive_hint").asBoolean()).isFalse();
    assertThat(entry.path("expires_in_sec").asLong()).isBetween(3590L, 3600L);
    assertThat(entry.path("tool").asText()).isEqualTo("greeter__greet");

    JsonNode dereg =
        structured(
            s.callTool(session, "deregister_tool", json("{\"tool_name\":\"" + name + "\"}"), a));
    assertThat(dereg)
        .isEqualTo(json("{\"success\":true,\"removed\":true,\"tool_name\":\"" + name + "\"}"));
    assertThat(structured(s.callTool(session, "list_dynamic_tools", json("{}"), a)))
        .isEqualTo(json("{\"dynamic_tools\":[],\"count\":0}"));
    assertThatThrownBy(() -> s.callTool(session, name, json("{}"), a))
        .isInstanceOf(UnknownToolException.class);
  }

  @Test
  void anotherSessionOrCaller_cannotSeeCallOrRemoveIt() throws Exception {
    SkillportService s = service(false);
    SessionState mine = s.openSession(m -> {});
    SessionState other = s.openSession(m -> {});
    ToolContext a = as("token:aaaa");
    ToolContext b = as("token:bbbb");
    String name = register(s, mine, a);

    for (ToolContext who : List.of(a, b)) {
      // Another session of the same caller, and another caller in the session.
      SessionState where = who == a ? other : mine;
      assertThat(
              structured(s.callTool(where, "list_dynamic_tools", json("{}"), who))
                  .path("count")
                  .asInt())
          .isZero();
      assertThatThrownBy(() -> s.callTool(where, name, json("{}"), who))
          .isInstanceOf(UnknownToolException.class);
      assertThat(
              structured(
                      s.callTool(
                          where, "deregister_tool", json("{\"tool_name\":\"" + name + "\"}"), who))
                  .path("removed")
                  .asBoolean())
          .isFalse();
    }
    SessionState stateless = s.statelessState();
    ObjectNode viaCallTool =
        s.callTool(stateless, "call_tool", json("{\"name\":\"" + name + "\"}"), a);
    assertThat(structured(viaCallTool).path("code").asText()).isEqualTo("ACTION_NOT_FOUND");

    assertThat(
            structured(s.callTool(mine, "list_dynamic_tools", json("{}"), a)).path("count").asInt())
        .isEqualTo(1);
    assertThat(s.callTool(mine, name, json("{}"), a).path("isError").asBoolean()).isFalse();
  }

  @Test
  void stateless_reachedThroughCallTool_listingNeverChanges() throws Exception {
    SkillportService s = service(false);
    SessionState stateless = s.statelessState();
    ToolContext a = as("token:aaaa");
    ToolContext b = as("token:bbbb");
    ObjectNode before = s.listTools(stateless, null);

    JsonNode reg = structured(s.callTool(stateless, "register_tool", json(GREET), a));
    String name = reg.path("tool_name").asText();
    assertThat(reg.path("message").asText()).contains("call_tool");
    assertThat(s.listTools(stateless, null)).isEqualTo(before);

    ObjectNode called =
        s.callTool(
            stateless,
            "call_tool",
            json("{\"name\":\"" + name + "\",\"arguments\":{\"punct\":\"?\"}}"),
            a);
    assertThat(called.path("isError").asBoolean()).as(called.toString()).isFalse();
    assertThat(structured(called)).isEqualTo(json("{\"name\":\"Bob\",\"punct\":\"?\"}"));
    assertThat(
            structured(s.callTool(stateless, "list_dynamic_tools", json("{}"), a))
                .path("count")
                .asInt())
        .isEqualTo(1);

    ObjectNode byB = s.callTool(stateless, "call_tool", json("{\"name\":\"" + name + "\"}"), b);
    assertThat(structured(byB).path("code").asText()).isEqualTo("ACTION_NOT_FOUND");
    assertThat(
            structured(s.callTool(stateless, "list_dynamic_tools", json("{}"), b))
                .path("count")
                .asInt())
        .isZero();
    assertThat(
            structured(
                    s.callTool(
                        stateless, "deregister_tool", json("{\"tool_name\":\"" + name + "\"}"), b))
                .path("removed")
                .asBoolean())
        .isFalse();
    // A session of the same caller does not see the caller's stateless tools either.
    SessionState session = s.openSession(m -> {});
    assertThat(
            structured(s.callTool(session, "list_dynamic_tools", json("{}"), a))
                .path("count")
                .asInt())
        .isZero();
    assertThat(s.listTools(stateless, null)).isEqualTo(before);
  }

  @Test
  void call_checksItsOwnSchemaThenTheTargetsAndTheTargetsGuard() throws Exception {
    SkillportService s = service(false);
    SessionState session = s.openSession(m -> {});
    ToolContext a = as("token:aaaa");
    String name = register(s, session, a);

    JsonNode wrongType = structured(s.callTool(session, name, json("{\"punct\":5}"), a));
    assertThat(wrongType.path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
    assertThat(wrongType.path("message").asText()).contains(name);

    String noPreset =
        structured(
                s.callTool(
                    session,
                    "register_tool",
                    json(
                        "{\"tool_spec\":{\"name\":\"bare\",\"description\":\"d\","
                            + "\"tool\":\"greeter__greet\"}}"),
                    a))
            .path("tool_name")
            .asText();
    JsonNode missing = structured(s.callTool(session, noPreset, json("{}"), a));
    assertThat(missing.path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
    assertThat(missing.path("message").asText()).contains("name");

    String blocked =
        structured(
                s.callTool(
                    session,
                    "register_tool",
                    json(
                        "{\"tool_spec\":{\"name\":\"sneak\",\"description\":\"d\","
                            + "\"tool\":\"blocked__greet\",\"arguments\":{\"name\":\"x\"}}}"),
                    a))
            .path("tool_name")
            .asText();
    assertThat(blocked).startsWith("dyn__sneak_");
    CallMeta meta = CallMeta.fromRequest(JSON.createObjectNode(), "sess-1", u -> {});
    JsonNode denied = structured(s.callTool(session, blocked, json("{}"), a, meta));
    assertThat(denied.path("code").asText()).isEqualTo("SKILL_DENIED");
    // Audited once, under the name called.
    assertThat(s.calls().recent().get(0).tool()).isEqualTo(blocked);
    assertThat(s.calls().recent().get(0).outcome()).isEqualTo("SKILL_DENIED");
  }

  @Test
  void register_refusesWhatADeclaredToolCouldNotBe() throws Exception {
    SkillportService s = service(false);
    SessionState session = s.openSession(m -> {});
    ToolContext a = as("token:aaaa");
    String[][] cases = {
      {"{}", "INVALID_ARGUMENTS"},
      {
        "{\"tool_spec\":{\"name\":\"bad name!\",\"description\":\"d\",\"tool\":\"greeter__greet\"}}",
        "INVALID_ARGUMENTS"
      },
      {
        "{\"tool_spec\":{\"name\":\""
            + "n".repeat(53)
            + "\",\"description\":\"d\",\"tool\":\"greeter__greet\"}}",
        "INVALID_ARGUMENTS"
      },
      {
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\" \",\"tool\":\"greeter__greet\"}}",
        "INVALID_ARGUMENTS"
      },
      {"{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\"}}", "INVALID_ARGUMENTS"},
      {
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"tool\":\"greeter__nope\"}}",
        "ACTION_NOT_FOUND"
      },
      {
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"tool\":\"register_tool\"}}",
        "INVALID_ARGUMENTS"
      },
      {
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"tool\":\"dyn__x_000000\"}}",
        "INVALID_ARGUMENTS"
      },
      {
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"tool\":\"greeter__greet\","
            + "\"parameters\":{\"p\":{\"type\":\"no-such-type\"}}}}",
        "INVALID_ARGUMENTS"
      },
      {
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"tool\":\"greeter__greet\","
            + "\"parameters\":{\"p\":3}}}",
        "INVALID_ARGUMENTS"
      },
      {
        "{\"tool_spec\":{\"name\":\"x\",\"description\":\"d\",\"code\":\"return 1\"}}",
        "DYNAMIC_CODE_DISABLED"
      },
    };
    for (String[] c : cases) {
      ObjectNode result = s.callTool(session, "register_tool", json(c[0]), a);
      assertThat(result.path("isError").asBoolean()).as(c[0]).isTrue();
      assertThat(structured(result).path("code").asText()).as(c[0]).isEqualTo(c[1]);
    }
    assertThat(
            structured(s.callTool(session, "list_dynamic_tools", json("{}"), a))
                .path("count")
                .asInt())
        .isZero();
  }

  @Test
  void code_runsOnlyWhereAllowed_asAScriptWithParams() throws Exception {
    SkillportService s = service(true);
    SessionState session = s.openSession(m -> {});
    ToolContext a = as("token:aaaa");
    JsonNode reg =
        structured(
            s.callTool(
                session,
                "register_tool",
                json(
                    "{\"tool_spec\":{\"name\":\"add\",\"description\":\"Adds\","
                        + "\"code\":\"total = params['a'] + params['b']\\nreturn {'sum': total}\","
                        + "\"parameters\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"integer\"}},"
                        + "\"required\":[\"a\",\"b\"]}}"),
                a));
    String name = reg.path("tool_name").asText();
    assertThat(name).startsWith("dyn__add_");
    ObjectNode sum = s.callTool(session, name, json("{\"a\":2,\"b\":40}"), a);
    assertThat(sum.path("isError").asBoolean()).as(sum.toString()).isFalse();
    assertThat(sum.toString()).contains("\"sum\":42");
    JsonNode missing = structured(s.callTool(session, name, json("{\"a\":2}"), a));
    assertThat(missing.path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
    JsonNode entry =
        structured(s.callTool(session, "list_dynamic_tools", json("{}"), a))
            .path("dynamic_tools")
            .get(0);
    assertThat(entry.path("language").asText()).isEqualTo("python");
  }

  private static String register(SkillportService s, SessionState session, ToolContext who)
      throws Exception {
    JsonNode reg = structured(s.callTool(session, "register_tool", json(GREET), who));
    assertThat(reg.path("success").asBoolean()).as(reg.toString()).isTrue();
    return reg.path("tool_name").asText();
  }

  private SkillportService service(boolean code) throws Exception {
    skill("greeter");
    skill("blocked");
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register("test.echo", inv -> ToolResult.structured(inv.arguments().deepCopy()));
    guard = CallGuard.of(Set.of("blocked"), null);
    service =
        SkillportService.builder(
                new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())), handlers)
            .scripts(new ScriptToolRunner(ScriptPolicy.defaults().withDynamicCode(code)))
            .jobs(new JobScheduler(new MemoryJobStore(), 1))
            .guard(guard)
            .preload(List.of("greeter", "blocked"))
            .pageSize(100)
            .build();
    return service;
  }

  private void skill(String name) throws Exception {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: Greeting skill "
            + name
            + "\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        dir.resolve("tools.yaml"),
        """
        tools:
          - name: greet
            description: Greets someone
            handler: test.echo
            input_schema:
              type: object
              properties: {name: {type: string}, punct: {type: string}}
              required: [name]
        """);
  }

  private static ToolContext as(String principal) {
    return new ToolContext() {
      @Override
      public void progress(double progress, Double total, String message) {}

      @Override
      public void log(String level, String message) {}

      @Override
      public boolean isCancelled() {
        return false;
      }

      @Override
      public Principal principal() {
        return Principal.of(principal);
      }
    };
  }

  private static JsonNode structured(ObjectNode result) {
    return result.path("structuredContent");
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }
}
