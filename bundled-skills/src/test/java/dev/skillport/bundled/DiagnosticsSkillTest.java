package dev.skillport.bundled;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.model.status.AdapterStatus;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.model.status.ServerIntrospection;
import dev.skillport.model.status.ServerStatus;
import dev.skillport.model.status.ToolMetrics;
import dev.skillport.testkit.SkillTestKit;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DiagnosticsSkillTest {
  private static final Instant START = Instant.parse("2026-01-02T03:04:05Z");

  private static BundledSkills bundled;
  private static SkillTestKit kit;
  private static final FakeServer SERVER = new FakeServer();

  /** A server whose every answer a test sets. */
  private static final class FakeServer implements ServerIntrospection {
    ServerStatus status;
    List<Diagnostic> skillDiagnostics = List.of();
    List<Diagnostic> pluginDiagnostics = List.of();
    List<AuditEntry> calls = List.of();
    List<ToolMetrics> metrics = List.of();
    Principal viewer;

    @Override
    public ServerStatus status() {
      return status;
    }

    @Override
    public List<Diagnostic> skillDiagnostics() {
      return skillDiagnostics;
    }

    @Override
    public List<Diagnostic> pluginDiagnostics() {
      return pluginDiagnostics;
    }

    @Override
    public List<AuditEntry> recentCalls(Principal viewer) {
      this.viewer = viewer;
      return calls.stream().filter(e -> viewer.sees(e.caller())).toList();
    }

    @Override
    public List<ToolMetrics> toolMetrics(Principal viewer) {
      this.viewer = viewer;
      return metrics;
    }
  }

  @BeforeAll
  static void loadSkill() throws IOException {
    bundled = BundledSkills.unpack();
    kit =
        SkillTestKit.load(
            bundled.root().resolve("skillport-diagnostics"),
            LoaderOptions.DEFAULTS.withStrict(true),
            new DiagnosticsHandlers(SERVER));
  }

  @AfterAll
  static void deleteCopy() {
    bundled.close();
  }

  private static AuditEntry call(int second, String tool, String outcome, String... names) {
    return new AuditEntry(
        START.plusSeconds(second), "s1", tool, Duration.ofMillis(second), outcome, List.of(names));
  }

  @Test
  void skill_loadsStrictlyWithoutDiagnostics() {
    assertThat(kit.diagnostics()).isEmpty();
    assertThat(kit.tools())
        .extracting(ToolSpec::name)
        .containsExactly("server_status", "skill_diagnostics", "recent_calls", "tool_metrics");
  }

  @Test
  void handlers_notServiceLoaded_theServerRegistersThem() {
    List<String> ids =
        ServiceLoader.load(ToolHandlerProvider.class).stream()
            .flatMap(p -> p.get().handlers().keySet().stream())
            .toList();

    assertThat(ids).doesNotContain(DiagnosticsHandlers.STATUS);
    assertThat(new DiagnosticsHandlers(SERVER).handlers())
        .containsOnlyKeys(
            DiagnosticsHandlers.STATUS,
            DiagnosticsHandlers.DIAGNOSTICS,
            DiagnosticsHandlers.RECENT_CALLS,
            DiagnosticsHandlers.METRICS);
  }

  @Test
  void serverStatus_reportsCountsAdaptersAndTransports() {
    SERVER.status =
        new ServerStatus(
            "1.2.3",
            START,
            Duration.ofSeconds(90),
            List.of("stdio"),
            2,
            7,
            Map.of(SkillState.AVAILABLE, 4, SkillState.SKIPPED, 1),
            List.of("python-host"),
            List.of(
                new AdapterStatus(
                    "py", Set.of("python-host"), false, "restarting after exit code 139")),
            3);

    JsonNode out = kit.call("server_status", Map.of()).structured();

    assertThat(out.path("version").asText()).isEqualTo("1.2.3");
    assertThat(out.path("uptime_ms").asLong()).isEqualTo(90_000);
    assertThat(out.path("transports").get(0).asText()).isEqualTo("stdio");
    assertThat(out.path("sessions").asInt()).isEqualTo(2);
    assertThat(out.at("/catalog/generation").asLong()).isEqualTo(7);
    assertThat(out.at("/catalog/skills").asInt()).isEqualTo(5);
    assertThat(out.at("/catalog/by_state/available").asInt()).isEqualTo(4);
    assertThat(out.at("/catalog/by_state/shadowed").asInt()).isZero();
    assertThat(out.at("/plugins/0").asText()).isEqualTo("python-host");
    assertThat(out.at("/adapters/0/id").asText()).isEqualTo("py");
    assertThat(out.at("/adapters/0/ready").asBoolean(true)).isFalse();
    assertThat(out.at("/adapters/0/detail").asText()).isEqualTo("restarting after exit code 139");
    assertThat(out.path("plugin_problems").asInt()).isEqualTo(3);
  }

  @Test
  void skillDiagnostics_noFilter_listsLoaderAndPluginDiagnostics() {
    SERVER.skillDiagnostics =
        List.of(
            Diagnostic.of(DiagnosticCode.DESCRIPTION_MISSING, "no description", null, 2, 1)
                .withSkill("mesh-tools"),
            Diagnostic.of(DiagnosticCode.FRONTMATTER_UNKNOWN_KEY, "odd key", null, 3, 1)
                .withSkill("other"));
    SERVER.pluginDiagnostics =
        List.of(
            Diagnostic.of(DiagnosticCode.PLUGIN_START_FAILED, "boom", Path.of("boom.jar"), 0, 0));

    JsonNode out = kit.call("skill_diagnostics", Map.of()).structured();

    assertThat(out.path("total").asInt()).isEqualTo(3);
    assertThat(out.path("diagnostics").findValuesAsText("code"))
        .containsExactly("DESCRIPTION_MISSING", "FRONTMATTER_UNKNOWN_KEY", "PLUGIN_START_FAILED");
    assertThat(out.at("/diagnostics/2/source").asText()).isEqualTo("plugin");
    assertThat(out.at("/diagnostics/2/file").asText()).isEqualTo("boom.jar");
    assertThat(out.path("errors").asInt()).isEqualTo(2);
    assertThat(out.path("warnings").asInt()).isEqualTo(1);
  }

  @Test
  void skillDiagnostics_bySkillName_onlyThatSkillAndNoPluginDiagnostics() {
    SERVER.skillDiagnostics =
        List.of(
            Diagnostic.of(DiagnosticCode.DESCRIPTION_MISSING, "no description", null, 2, 1)
                .withSkill("mesh-tools"),
            Diagnostic.of(DiagnosticCode.DESCRIPTION_MISSING, "no description", null, 2, 1)
                .withSkill("other"));
    SERVER.pluginDiagnostics =
        List.of(Diagnostic.of(DiagnosticCode.PLUGIN_INVALID, "bad", Path.of("x.jar"), 0, 0));

    JsonNode out = kit.call("skill_diagnostics", Map.of("skill_name", "mesh_tools")).structured();

    assertThat(out.path("total").asInt()).isEqualTo(1);
    assertThat(out.at("/diagnostics/0/skill").asText()).isEqualTo("mesh-tools");
  }

  @Test
  void skillDiagnostics_severityError_dropsWarnings() {
    SERVER.skillDiagnostics =
        List.of(
            Diagnostic.of(DiagnosticCode.FRONTMATTER_UNKNOWN_KEY, "odd key", null, 3, 1)
                .withSkill("other"));
    SERVER.pluginDiagnostics =
        List.of(Diagnostic.of(DiagnosticCode.PLUGIN_INVALID, "bad", Path.of("x.jar"), 0, 0));

    JsonNode out = kit.call("skill_diagnostics", Map.of("severity", "error")).structured();

    assertThat(out.path("diagnostics").findValuesAsText("code")).containsExactly("PLUGIN_INVALID");
  }

  @Test
  void skillDiagnostics_unknownSeverity_refusedBySchema() {
    ToolResult result = kit.call("skill_diagnostics", Map.of("severity", "fatal"));
    assertThat(result.isError()).isTrue();
    assertThat(result.structured().path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
  }

  @Test
  void recentCalls_limitAndFilters_keepNewestFirstOrder() {
    List<AuditEntry> calls = new ArrayList<>();
    for (int i = 10; i > 0; i--) {
      calls.add(call(i, i % 2 == 0 ? "even" : "odd", i == 4 ? "HANDLER_FAILED" : "ok", "size"));
    }
    SERVER.calls = calls;

    JsonNode limited = kit.call("recent_calls", Map.of("limit", 3)).structured();
    JsonNode even = kit.call("recent_calls", Map.of("tool", "even")).structured();
    JsonNode failed = kit.call("recent_calls", Map.of("outcome", "error")).structured();

    assertThat(limited.path("kept").asInt()).isEqualTo(10);
    assertThat(limited.path("calls").findValuesAsText("time"))
        .containsExactly(
            START.plusSeconds(10).toString(),
            START.plusSeconds(9).toString(),
            START.plusSeconds(8).toString());
    assertThat(even.path("returned").asInt()).isEqualTo(5);
    assertThat(even.path("calls").findValuesAsText("tool")).containsOnly("even");
    assertThat(failed.path("calls").findValuesAsText("outcome")).containsExactly("HANDLER_FAILED");
    assertThat(failed.at("/calls/0/arguments/0").asText()).isEqualTo("size");
    assertThat(failed.at("/calls/0/duration_ms").asDouble()).isEqualTo(4.0);
  }

  @Test
  void recentCalls_anotherCallersEntries_leftOutForTheCallingPrincipal() {
    SERVER.calls =
        List.of(
            call(2, "mine", "ok"),
            new AuditEntry(
                START.plusSeconds(1),
                "s2",
                "theirs",
                Duration.ofMillis(1),
                "ok",
                List.of(),
                "token:0123456789ab"));

    JsonNode out = kit.call("recent_calls", Map.of()).structured();

    assertThat(SERVER.viewer).isEqualTo(Principal.LOCAL);
    assertThat(out.path("calls").findValuesAsText("tool")).containsExactly("mine");
  }

  @Test
  void toolMetrics_oneTool_givesCountsAndMilliseconds() {
    SERVER.metrics =
        List.of(
            new ToolMetrics(
                "a", 5, 1, Duration.ofMillis(2), Duration.ofMillis(9), Duration.ofMillis(10)),
            new ToolMetrics(
                "b", 1, 0, Duration.ofNanos(1500), Duration.ofNanos(1500), Duration.ofNanos(1500)));

    JsonNode all = kit.call("tool_metrics", Map.of()).structured();
    ToolResult one = kit.call("tool_metrics", Map.of("tool", "b"));

    assertThat(all.path("tools").findValuesAsText("tool")).containsExactly("a", "b");
    assertThat(all.at("/tools/0/errors").asLong()).isEqualTo(1);
    assertThat(all.at("/tools/0/p95_ms").asDouble()).isEqualTo(9.0);
    assertThat(one.structured().path("tools")).hasSize(1);
    assertThat(one.structured().at("/tools/0/max_ms").asDouble()).isEqualTo(0.002);
  }
}
