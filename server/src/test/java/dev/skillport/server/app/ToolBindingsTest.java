package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.ToolBindings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolBindingsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path root;
  private Catalog catalog;
  private final AtomicInteger calls = new AtomicInteger();
  private final ToolHandler counting =
      inv -> {
        calls.incrementAndGet();
        return ToolResult.text("counted");
      };
  private HandlerRegistry handlers;

  @BeforeEach
  void setUp() throws IOException {
    Files.createDirectories(root.resolve("bound"));
    Files.writeString(
        root.resolve("bound/SKILL.md"),
        """
        ---
        name: bound
        description: Java handlers, one of them not installed
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        """);
    Files.writeString(
        root.resolve("bound/tools.yaml"),
        """
        tools:
          - name: count
            description: Counts
            handler: test.count
          - name: ghost
            description: Names a handler nobody registers
            handler: test.ghost
        """);
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    catalog = Catalog.of(7, loaded.skills(), loaded.diagnostics());
    handlers = new HandlerRegistry();
    handlers.register("test.count", counting);
  }

  private ToolSpec tool(String name) {
    Skill skill = catalog.skill("bound").orElseThrow();
    return skill.tool(name).orElseThrow();
  }

  @Test
  void bind_registeredHandler_isBoundToTheToolItself() {
    ToolBindings bindings = ToolBindings.bind(catalog, handlers);

    assertThat(bindings.generation()).isEqualTo(7);
    assertThat(bindings.handler(tool("count"))).containsSame(counting);
    assertThat(bindings.handler(tool("ghost"))).isEmpty();
  }

  @Test
  void bind_handlerNobodyRegisters_isADiagnosticAtItsToolsYamlLine() {
    List<Diagnostic> diagnostics = ToolBindings.bind(catalog, handlers).diagnostics();

    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.HANDLER_NOT_REGISTERED);
              assertThat(d.isError()).isTrue();
              assertThat(d.skill()).isEqualTo("bound");
              assertThat(d.message()).contains("ghost", "test.ghost");
              // The line of tools.yaml that names the handler.
              assertThat(d.file()).isEqualTo(root.resolve("bound/tools.yaml"));
              assertThat(d.line()).isEqualTo(7);
            });
  }

  @Test
  void service_callsTheBoundHandler_andReportsTheMissingOneInDiagnosticsAndSkillInfo()
      throws Exception {
    SkillportService service =
        new SkillportService(
            new CatalogHolder(catalog),
            handlers,
            new ScriptToolRunner(Duration.ofSeconds(10), 1 << 20, 1 << 16),
            List.of("bound"),
            100);
    SessionState session = service.openSession(n -> {});

    ObjectNode counted =
        service.callTool(session, "count", JSON.createObjectNode(), ToolContext.NONE);
    ObjectNode ghost =
        service.callTool(session, "ghost", JSON.createObjectNode(), ToolContext.NONE);
    ObjectNode info =
        service.callTool(
            session,
            "get_skill_info",
            JSON.createObjectNode().put("skill_name", "bound"),
            ToolContext.NONE);

    assertThat(counted.path("isError").asBoolean()).isFalse();
    assertThat(calls).hasValue(1);
    assertThat(ghost.path("isError").asBoolean()).isTrue();
    assertThat(ghost.at("/structuredContent/code").asText()).isEqualTo("NO_HANDLER");
    assertThat(service.skillDiagnostics())
        .extracting(Diagnostic::code)
        .contains(DiagnosticCode.HANDLER_NOT_REGISTERED);
    assertThat(info.at("/structuredContent/diagnostics").toString())
        .contains("HANDLER_NOT_REGISTERED");
  }
}
