package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.TestSkills;
import dev.skillport.registry.ToolNames;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MemoryJobStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CallRouterTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<CoreTool> CORE =
      List.of(
          new CoreTool("search_skills", "Search", ToolSpec.defaultInputSchema(), null),
          new CoreTool(CallRouter.CALL_TOOL, "Call", ToolSpec.defaultInputSchema(), null));

  private final Catalog catalog =
      TestSkills.catalog(
          1,
          TestSkills.named("alpha")
              .tool(
                  ToolSpec.builder("echo", ToolSpec.defaultInputSchema())
                      .binding(new ToolBinding.Handler("test.echo"))
                      .build())
              .build(),
          TestSkills.named("beta").tool("other").build());
  private final CatalogHolder holder = new CatalogHolder(catalog);
  private final JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 1);
  private final CallStats stats = new CallStats(16);
  private final List<String> platformCalls = new ArrayList<>();
  private final ToolNames sessionNames = new ToolNames(CORE, true);
  private final ToolNames statelessNames = new ToolNames(CORE, false);
  private final CallRouter router = router(skill -> Optional.empty());

  private CallRouter router(Function<Skill, Optional<String>> refusal) {
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register(
        "test.echo", invocation -> ToolResult.structured((ObjectNode) invocation.arguments()));
    ToolCalls calls =
        new ToolCalls(
            new ToolRunner(
                new ScriptToolRunner(Duration.ofSeconds(5), 1 << 16, 1 << 16),
                HostExecutors.none("no hosts here"),
                (skill, tool, args, ctx) -> ToolResult.error("no bridges")),
            CallGuard.NONE,
            jobs,
            stats,
            completed -> {
              throw new AssertionError("no call here becomes a job");
            },
            "tasks");
    return new CallRouter(
        holder,
        new CallRouter.Naming() {
          @Override
          public ToolNames names(Catalog snapshot, SessionView view) {
            return sessionNames;
          }

          @Override
          public ToolNames statelessNames(Catalog snapshot, SessionState state) {
            return statelessNames;
          }
        },
        new CurrentBindings(handlers),
        calls,
        (snapshot, session, name, args, ctx, meta, self) -> {
          platformCalls.add(name);
          return new CallOutcome.Completed(ToolResult.text("platform " + name), null);
        },
        (handle, skill, group, principal) -> false,
        refusal);
  }

  @AfterEach
  void close() {
    jobs.close();
  }

  private SessionState session(String... loaded) {
    SessionView view = new SessionView();
    view.load(catalog, List.of(loaded), true);
    return new SessionState(view, method -> {});
  }

  private SessionState stateless() {
    SessionView reachable = new SessionView();
    reachable.load(catalog, List.of("alpha", "beta"), true);
    return SessionState.stateless(reachable, new SessionView());
  }

  private static ToolResult result(CallOutcome outcome) {
    return outcome.ranResult().orElseThrow();
  }

  private static String code(CallOutcome outcome) {
    return result(outcome).structured().path("code").asText();
  }

  @Test
  void call_loadedTool_runsItsBoundHandlerAndIsAuditedOnce() throws Exception {
    ObjectNode args = NODES.objectNode().put("x", 1);

    CallOutcome outcome = router.call(session("alpha"), "echo", args, ToolContext.NONE, meta());

    assertThat(result(outcome).structured()).isEqualTo(args);
    assertThat(stats.recent()).extracting(AuditEntry::outcome).containsExactly("ok");
  }

  @Test
  void call_unknownName_isAProtocolErrorAndIsAuditedAsSuch() {
    assertThatThrownBy(
            () -> router.call(session("alpha"), "nothing", null, ToolContext.NONE, meta()))
        .isInstanceOf(UnknownToolException.class);
    assertThat(stats.recent()).extracting(AuditEntry::outcome).containsExactly("UNKNOWN_TOOL");
  }

  @Test
  void call_argumentsNotAnObject_refusedBeforeTheToolRuns() throws Exception {
    CallOutcome outcome =
        router.call(session("alpha"), "echo", NODES.arrayNode(), ToolContext.NONE, meta());

    assertThat(code(outcome)).isEqualTo(ToolFailureCode.INVALID_ARGUMENTS.name());
  }

  @Test
  void call_toolOfASkillNotLoaded_refusedWithTheLoadToCall() throws Exception {
    CallOutcome outcome =
        router.call(session("alpha"), "beta__other", null, ToolContext.NONE, meta());

    assertThat(code(outcome)).isEqualTo(ToolFailureCode.SKILL_NOT_LOADED.name());
    assertThat(result(outcome).structured().path("hint").asText()).contains("load_skill(\"beta\")");
  }

  @Test
  void call_platformTool_handedToThePlatformTools() throws Exception {
    CallOutcome outcome = router.call(session(), "search_skills", null, ToolContext.NONE, meta());

    assertThat(platformCalls).containsExactly("search_skills");
    assertThat(result(outcome).isError()).isFalse();
  }

  @Test
  void callTool_stateless_routesItsTargetAndReportsTheCalledTool() throws Exception {
    ObjectNode args = NODES.objectNode().put("name", "alpha__echo");
    args.putObject("arguments").put("y", 2);

    CallOutcome outcome =
        router.call(stateless(), CallRouter.CALL_TOOL, args, ToolContext.NONE, meta());

    assertThat(outcome).isInstanceOf(CallOutcome.Delegated.class);
    CallOutcome.Delegated delegated = (CallOutcome.Delegated) outcome;
    assertThat(delegated.skill()).isEqualTo("alpha");
    assertThat(delegated.tool().name()).isEqualTo("echo");
    assertThat(result(outcome).structured().path("y").asInt()).isEqualTo(2);
    assertThat(platformCalls).isEmpty();
  }

  @Test
  void callTool_namingItself_isRefused() throws Exception {
    ObjectNode args = NODES.objectNode().put("name", CallRouter.CALL_TOOL);

    CallOutcome outcome =
        router.call(stateless(), CallRouter.CALL_TOOL, args, ToolContext.NONE, meta());

    assertThat(code(outcome)).isEqualTo(ToolFailureCode.INVALID_ARGUMENTS.name());
  }

  @Test
  void call_statelessSkillRefusedByTheHost_saysWhy() throws Exception {
    CallRouter refusing =
        router(skill -> skill.name().equals("beta") ? Optional.of("needs Maya") : Optional.empty());
    SessionView alphaOnly = new SessionView();
    alphaOnly.load(catalog, List.of("alpha"), true);
    SessionState state = SessionState.stateless(alphaOnly, new SessionView());

    CallOutcome outcome = refusing.call(state, "beta__other", null, ToolContext.NONE, meta());

    assertThat(code(outcome)).isEqualTo(ToolFailureCode.SKILL_NOT_AVAILABLE.name());
    assertThat(result(outcome).structured().path("message").asText()).contains("needs Maya");
  }

  @Test
  void declared_namesTheSkillToolACallWouldRun() {
    assertThat(router.declared(session("alpha"), "echo")).map(ToolSpec::name).contains("echo");
    assertThat(router.declared(session("alpha"), "search_skills")).isEmpty();
  }

  private static CallMeta meta() {
    return CallMeta.NONE;
  }
}
