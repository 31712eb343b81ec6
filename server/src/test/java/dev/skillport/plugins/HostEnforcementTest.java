package dev.skillport.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.server.app.SkillportService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** load_skill against the host adapters present, and main-thread tools run through them. */
class HostEnforcementTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path root;
  private LoadResult loaded;
  private final List<HostCall> calls = new CopyOnWriteArrayList<>();

  /** An adapter assembled from parts; {@code executor} may be null. */
  record FakeAdapter(
      String id,
      Set<String> products,
      Set<String> capabilities,
      HostExecutor executor,
      boolean ready)
      implements HostAdapter {
    @Override
    public Optional<HostExecutor> mainThreadExecutor() {
      return Optional.ofNullable(executor);
    }

    @Override
    public boolean isReady() {
      return ready;
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private void skill(String name, String dccLines, String toolLines) throws IOException {
    write(
        root.resolve(name + "/SKILL.md"),
        """
        ---
        name: %s
        description: Test skill %s
        metadata:
          dcc-mcp:
        %s
            tools: tools.yaml
        ---
        Body.
        """
            .formatted(name, name, dccLines.indent(4).stripTrailing()));
    write(root.resolve(name + "/tools.yaml"), "tools:\n" + toolLines.indent(2));
    write(root.resolve(name + "/scripts/run.py"), "def main(**params):\n    return params\n");
  }

  @BeforeEach
  void skills() throws IOException {
    skill(
        "scene-ops",
        "dcc: maya",
        """
        - name: run
          thread-affinity: main
          source_file: scripts/run.py
        """);
    skill(
        "render-ops",
        "dcc: maya",
        """
        - name: run
          required_capabilities: [render]
          source_file: scripts/run.py
        """);
    skill(
        "maya-only",
        "products: [maya]",
        """
        - name: run
          source_file: scripts/run.py
        """);
    skill(
        "anywhere",
        "products: [python, maya]",
        """
        - name: run
          source_file: scripts/run.py
        """);
    loaded = new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    assertThat(loaded.skills()).hasSize(4);
  }

  private Skill named(String name) {
    return loaded.skill(name).orElseThrow();
  }

  private SkillportService service(HostAdapter... adapters) {
    return new SkillportService(
        new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())),
        new HandlerRegistry(),
        new ScriptToolRunner(Duration.ofSeconds(10), 1 << 20, 1 << 16),
        List.of(),
        100,
        new HostAdapters(List.of(adapters)));
  }

  private HostAdapter maya(Set<String> capabilities, boolean executor, boolean ready) {
    HostExecutor run =
        call -> {
          calls.add(call);
          return ToolResult.structured(JSON.createObjectNode().put("ran_in", "maya"));
        };
    return new FakeAdapter(
        "maya-adapter", Set.of("Maya"), capabilities, executor ? run : null, ready);
  }

  private static JsonNode call(SkillportService service, SessionState s, String tool, String args)
      throws Exception {
    return service.callTool(s, tool, JSON.readTree(args), ToolContext.NONE);
  }

  @Test
  void refusal_mainAffinityWithoutAdapter_namesTheMissingAdapter() {
    assertThat(HostAdapters.none().refusal(named("scene-ops")))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains("host adapter for 'maya'")
                    .contains("main-thread executor")
                    .contains("[run]"));
  }

  @Test
  void refusal_adapterWithoutExecutor_saysWhatItLacks() {
    HostAdapters hosts = new HostAdapters(List.of(maya(Set.of(), false, true)));
    assertThat(hosts.refusal(named("scene-ops")))
        .hasValueSatisfying(
            why -> assertThat(why).contains("maya-adapter").contains("lacks a main-thread"));
  }

  @Test
  void refusal_adapterNotReady_isRefused() {
    HostAdapters hosts = new HostAdapters(List.of(maya(Set.of(), true, false)));
    assertThat(hosts.refusal(named("scene-ops")))
        .hasValueSatisfying(why -> assertThat(why).contains("not ready"));
  }

  @Test
  void refusal_adapterNotReady_saysWhyInTheAdaptersOwnWords() {
    HostAdapter restarting =
        new HostAdapter() {
          @Override
          public String id() {
            return "maya-adapter";
          }

          @Override
          public Set<String> products() {
            return Set.of("Maya");
          }

          @Override
          public Optional<HostExecutor> mainThreadExecutor() {
            return Optional.of(call -> ToolResult.text(""));
          }

          @Override
          public boolean isReady() {
            return false;
          }

          @Override
          public String statusDetail() {
            return "restarting after exit code 139; next attempt in 2000 ms";
          }
        };
    assertThat(new HostAdapters(List.of(restarting)).refusal(named("scene-ops")))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains(
                        "adapter 'maya-adapter' is not ready (restarting after exit code 139;"));
  }

  @Test
  void refusal_capabilities_mustAllBeDeclaredByOneServingAdapter() {
    assertThat(
            new HostAdapters(List.of(maya(Set.of("scene"), false, true)))
                .refusal(named("render-ops")))
        .hasValueSatisfying(why -> assertThat(why).contains("capabilities [render]"));
    assertThat(
            new HostAdapters(List.of(maya(Set.of("render"), false, true)))
                .refusal(named("render-ops")))
        .isEmpty();
  }

  @Test
  void refusal_products_needAnAdapterUnlessPythonIsListed() {
    assertThat(HostAdapters.none().refusal(named("maya-only")))
        .hasValueSatisfying(why -> assertThat(why).contains("only for products [maya]"));
    assertThat(HostAdapters.none().refusal(named("anywhere"))).isEmpty();
    assertThat(new HostAdapters(List.of(maya(Set.of(), false, true))).refusal(named("maya-only")))
        .isEmpty();
  }

  @Test
  void loadSkill_mainAffinityWithoutAdapter_failsWithTheReason() throws Exception {
    SkillportService service = service();
    SessionState s = service.openSession(m -> {});
    JsonNode result = call(service, s, "load_skill", "{\"skill_name\":\"scene-ops\"}");
    assertThat(result.get("isError").asBoolean()).isTrue();
    assertThat(result.toString())
        .contains("SKILL_NOT_LOADABLE")
        .contains("host adapter for 'maya'");
    assertThat(s.view().isLoaded("scene-ops")).isFalse();
  }

  @Test
  void callTool_mainAffinityWithAdapter_runsThroughTheExecutor() throws Exception {
    SkillportService service = service(maya(Set.of(), true, true));
    SessionState s = service.openSession(m -> {});
    JsonNode load = call(service, s, "load_skill", "{\"skill_name\":\"scene-ops\"}");
    assertThat(load.get("isError").asBoolean()).isFalse();
    JsonNode result = call(service, s, "scene_ops__run", "{\"x\": 1}");
    assertThat(result.get("isError").asBoolean()).as(result.toString()).isFalse();
    assertThat(result.get("structuredContent").get("ran_in").asText()).isEqualTo("maya");
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0).arguments().get("x").asInt()).isEqualTo(1);
    assertThat(calls.get(0).script().getFileName().toString()).isEqualTo("run.py");
  }

  @Test
  void callTool_pythonScriptOfAProduct_runsInItsAdapterOrIsRefused() throws Exception {
    skill(
        "maya-script",
        "dcc: maya",
        """
        - name: run
          source_file: scripts/run.py
        """);
    loaded = new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    SkillportService plain = service();
    SkillportService withAdapter = service(maya(Set.of(), true, true));
    SessionState a = plain.openSession(m -> {});
    SessionState b = withAdapter.openSession(m -> {});
    call(plain, a, "load_skill", "{\"skill_name\":\"maya-script\"}");
    call(withAdapter, b, "load_skill", "{\"skill_name\":\"maya-script\"}");

    JsonNode refused = call(plain, a, "maya_script__run", "{}");
    JsonNode inHost = call(withAdapter, b, "maya_script__run", "{}");

    assertThat(refused.get("isError").asBoolean()).isTrue();
    assertThat(refused.at("/structuredContent/code").asText()).isEqualTo("DCC_INTERPRETER_MISSING");
    assertThat(refused.at("/structuredContent/message").asText()).contains("'maya'");
    assertThat(inHost.get("isError").asBoolean()).as(inHost.toString()).isFalse();
    assertThat(inHost.at("/structuredContent/ran_in").asText()).isEqualTo("maya");
  }
}
