package dev.skillport.bundled;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.status.AdapterStatus;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.model.status.ServerIntrospection;
import dev.skillport.model.status.ServerStatus;
import dev.skillport.model.status.ToolMetrics;
import dev.skillport.sdk.Arguments;
import dev.skillport.sdk.Results;
import dev.skillport.sdk.ToolHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The handlers of the bundled {@code skillport-diagnostics} skill. They report on the server they
 * run in through the {@link ServerIntrospection} it passes in, so this class is registered by the
 * server rather than found through the service loader (it has no server to read without one).
 */
public final class DiagnosticsHandlers implements ToolHandlerProvider {
  /** Handler ids, as {@code tools.yaml} of {@code skillport-diagnostics} names them. */
  static final String STATUS = "skillport-diagnostics.server_status";

  static final String DIAGNOSTICS = "skillport-diagnostics.skill_diagnostics";
  static final String RECENT_CALLS = "skillport-diagnostics.recent_calls";
  static final String METRICS = "skillport-diagnostics.tool_metrics";

  /**
   * Every handler id of this class, known before a server registers it (its skills are checked for
   * unregistered handlers while the server is still being built).
   */
  public static final Set<String> IDS = Set.of(STATUS, DIAGNOSTICS, RECENT_CALLS, METRICS);

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final ServerIntrospection server;
  private final ToolHandlerProvider handlers;

  /** Handlers reporting on {@code server}. */
  public DiagnosticsHandlers(ServerIntrospection server) {
    this.server = Objects.requireNonNull(server, "server");
    this.handlers =
        ToolHandlers.builder()
            .handler(STATUS, this::status)
            .handler(DIAGNOSTICS, this::diagnostics)
            .handler(RECENT_CALLS, this::recentCalls)
            .handler(METRICS, this::metrics)
            .build();
  }

  @Override
  public Map<String, ToolHandler> handlers() {
    return handlers.handlers();
  }

  private ToolResult status(ToolInvocation invocation) {
    ServerStatus s = server.status();
    ObjectNode out = JSON.objectNode();
    out.put("version", s.version());
    out.put("started_at", s.startedAt().toString());
    out.put("uptime_ms", s.uptime().toMillis());
    ArrayNode transports = out.putArray("transports");
    s.transports().forEach(transports::add);
    out.put("sessions", s.sessions());
    ObjectNode catalog = out.putObject("catalog");
    catalog.put("generation", s.catalogGeneration());
    catalog.put("skills", s.skillCount());
    ObjectNode byState = catalog.putObject("by_state");
    for (SkillState state : SkillState.values()) {
      byState.put(state.label(), s.skillsByState().get(state));
    }
    ArrayNode plugins = out.putArray("plugins");
    s.plugins().forEach(plugins::add);
    ArrayNode adapters = out.putArray("adapters");
    for (AdapterStatus a : s.adapters()) {
      ObjectNode item = adapters.addObject();
      item.put("id", a.id());
      ArrayNode products = item.putArray("products");
      new TreeSet<>(a.products()).forEach(products::add);
      item.put("ready", a.ready());
      item.put("detail", a.detail());
    }
    out.put("plugin_problems", s.pluginProblems());
    return Results.structured(out);
  }

  private ToolResult diagnostics(ToolInvocation invocation) {
    Arguments args = Arguments.of(invocation);
    Optional<String> skill = args.optionalString("skill_name").map(String::strip);
    Optional<Severity> worst = args.optionalString("severity").map(DiagnosticsHandlers::severity);
    ObjectNode out = JSON.objectNode();
    skill.ifPresent(name -> out.put("skill_name", name));
    ArrayNode list = JSON.arrayNode();
    int[] counts = new int[Severity.values().length];
    for (Diagnostic d : server.skillDiagnostics()) {
      if (skill.map(name -> sameSkill(name, d.skill())).orElse(true) && atLeast(d, worst)) {
        DiagnosticJson.write(d, list.addObject()).put("source", "loader");
        counts[d.severity().ordinal()]++;
      }
    }
    if (skill.isEmpty()) {
      for (Diagnostic d : server.pluginDiagnostics()) {
        if (atLeast(d, worst)) {
          DiagnosticJson.write(d, list.addObject()).put("source", "plugin");
          counts[d.severity().ordinal()]++;
        }
      }
    }
    out.put("total", list.size());
    for (Severity level : Severity.values()) {
      out.put(level.label() + "s", counts[level.ordinal()]);
    }
    out.set("diagnostics", list);
    return Results.structured(out);
  }

  private ToolResult recentCalls(ToolInvocation invocation) {
    Arguments args = Arguments.of(invocation);
    long limit = args.integer("limit", 20);
    Optional<String> tool = args.optionalString("tool");
    Optional<String> outcome = args.optionalString("outcome");
    List<AuditEntry> kept = server.recentCalls(invocation.context().principal());
    ArrayNode calls = JSON.arrayNode();
    for (AuditEntry e : kept) {
      if (calls.size() >= limit) {
        break;
      }
      if (tool.map(t -> t.equals(e.tool())).orElse(true)
          && outcome.map(o -> matches(o, e)).orElse(true)) {
        ObjectNode item = calls.addObject();
        item.put("time", e.time().toString());
        if (e.session() != null) {
          item.put("session", e.session());
        }
        item.put("tool", e.tool());
        item.put("duration_ms", millis(e.duration()));
        item.put("outcome", e.outcome());
        ArrayNode names = item.putArray("arguments");
        e.argumentNames().forEach(names::add);
      }
    }
    ObjectNode out = JSON.objectNode();
    out.put("kept", kept.size());
    out.put("returned", calls.size());
    out.set("calls", calls);
    return Results.structured(out);
  }

  private ToolResult metrics(ToolInvocation invocation) {
    Optional<String> tool = Arguments.of(invocation).optionalString("tool");
    ArrayNode tools = JSON.arrayNode();
    for (ToolMetrics m : server.toolMetrics(invocation.context().principal())) {
      if (tool.map(t -> t.equals(m.tool())).orElse(true)) {
        ObjectNode item = tools.addObject();
        item.put("tool", m.tool());
        item.put("calls", m.calls());
        item.put("errors", m.errors());
        item.put("p50_ms", millis(m.p50()));
        item.put("p95_ms", millis(m.p95()));
        item.put("max_ms", millis(m.max()));
      }
    }
    ObjectNode out = JSON.objectNode();
    out.set("tools", tools);
    return Results.structured(out);
  }

  private static Severity severity(String label) {
    try {
      return Severity.valueOf(label.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      // The input schema lists the levels; this only guards callers that skip it.
      throw new IllegalArgumentException("severity must be error, warning or notice", e);
    }
  }

  /** Severities are declared worst first, so "at least" means "ordinal not above". */
  private static boolean atLeast(Diagnostic d, Optional<Severity> worst) {
    return worst.map(w -> d.severity().ordinal() <= w.ordinal()).orElse(true);
  }

  /** Skill names match as tool names do: {@code my_skill} also finds {@code my-skill}. */
  private static boolean sameSkill(String asked, String skill) {
    return skill != null && (skill.equals(asked) || skill.equals(asked.replace('_', '-')));
  }

  private static boolean matches(String outcome, AuditEntry e) {
    return outcome.equalsIgnoreCase("error") ? e.isError() : outcome.equals(e.outcome());
  }

  /** Milliseconds with microsecond precision: most calls take well under one millisecond. */
  private static double millis(Duration d) {
    return Math.round(d.toNanos() / 1_000.0) / 1_000.0;
  }
}
