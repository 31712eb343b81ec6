package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.model.status.ToolMetrics;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.MemoryJobStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallGuardTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path root;

  @Test
  void callTool_deniedSkill_isRefusedAndEveryCallIsAuditedWithoutValues() throws Exception {
    skill("allowed");
    skill("blocked");
    Path audit = root.resolve("logs/audit.jsonl");
    CallGuard guard = CallGuard.of(Set.of("blocked"), audit);
    SkillportService service = service(guard);
    SessionState session = service.openSession(m -> {});
    JsonNode args = JSON.readTree("{\"api_token\":\"hunter2-very-secret\",\"n\":3}");
    CallMeta meta = CallMeta.fromRequest(JSON.createObjectNode(), "sess-1", u -> {});

    ObjectNode ok = service.callTool(session, "allowed__echo", args, ToolContext.NONE, meta);
    ObjectNode refused = service.callTool(session, "blocked__echo", args, ToolContext.NONE, meta);
    guard.close();
    service.jobs().close();

    assertThat(ok.path("isError").asBoolean()).isFalse();
    assertThat(refused.path("isError").asBoolean()).isTrue();
    assertThat(refused.path("structuredContent").path("code").asText()).isEqualTo("SKILL_DENIED");
    String trail = Files.readString(audit);
    assertThat(trail).doesNotContain("hunter2");
    List<JsonNode> lines = trail.lines().map(CallGuardTest::json).toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).path("tool").asText()).isEqualTo("allowed__echo");
    assertThat(lines.get(0).path("outcome").asText()).isEqualTo("ok");
    assertThat(lines.get(0).path("session").asText()).isEqualTo("sess-1");
    assertThat(lines.get(0).path("arguments").toString()).isEqualTo("[\"api_token\",\"n\"]");
    assertThat(lines.get(1).path("outcome").asText()).isEqualTo("SKILL_DENIED");
  }

  @Test
  void callTool_noAuditFile_sameEntriesKeptInMemoryWithMetrics() throws Exception {
    skill("allowed");
    skill("blocked");
    SkillportService service = service(CallGuard.of(Set.of("blocked"), null));
    SessionState session = service.openSession(m -> {});
    JsonNode args = JSON.readTree("{\"api_token\":\"hunter2-very-secret\",\"n\":3}");
    CallMeta meta = CallMeta.fromRequest(JSON.createObjectNode(), "sess-1", u -> {});

    service.callTool(session, "allowed__echo", args, ToolContext.NONE, meta);
    service.callTool(session, "allowed__echo", args, ToolContext.NONE, meta);
    service.callTool(session, "blocked__echo", args, ToolContext.NONE, meta);
    service.jobs().close();

    List<AuditEntry> recent = service.calls().recent();
    assertThat(recent)
        .extracting(AuditEntry::tool)
        .containsExactly("blocked__echo", "allowed__echo", "allowed__echo");
    assertThat(recent.get(0).outcome()).isEqualTo("SKILL_DENIED");
    assertThat(recent.get(1).session()).isEqualTo("sess-1");
    assertThat(recent.get(1).argumentNames()).containsExactly("api_token", "n");
    assertThat(recent.toString()).doesNotContain("hunter2");
    assertThat(service.calls().metrics())
        .extracting(ToolMetrics::tool, ToolMetrics::calls, ToolMetrics::errors)
        .containsExactly(tuple("allowed__echo", 2L, 0L), tuple("blocked__echo", 1L, 1L));
  }

  private SkillportService service(CallGuard guard) {
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register("test.echo", inv -> ToolResult.structured(inv.arguments().deepCopy()));
    return SkillportService.builder(
            new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())), handlers)
        .scripts(new ScriptToolRunner(ScriptPolicy.defaults()))
        .jobs(new JobScheduler(new MemoryJobStore(), 1))
        .guard(guard)
        .preload(List.of("allowed", "blocked"))
        .pageSize(100)
        .build();
  }

  private void skill(String name) throws Exception {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: Echo skill "
            + name
            + "\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        dir.resolve("tools.yaml"),
        "tools:\n  - name: echo\n    description: Echoes\n    handler: test.echo\n");
  }

  private static JsonNode json(String line) {
    try {
      return JSON.readTree(line);
    } catch (Exception e) {
      throw new AssertionError(line, e);
    }
  }
}
