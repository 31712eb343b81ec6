package dev.skillport.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.PromptArgument;
import dev.skillport.model.skill.PromptSpec;
import dev.skillport.model.skill.ResourceSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.status.AdapterStatus;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.model.status.ServerStatus;
import dev.skillport.model.status.ToolMetrics;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.search.SkillHit;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.runtime.jobs.JobRecord;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds what the templates show from a server's live state: plain records of strings and lists,
 * every skill-provided string passed through the masking (the templates escape them all).
 */
final class CatalogViews {
  static final int JOBS_SHOWN = 100;
  static final int RUNS_SHOWN = 50;
  static final int CALLS_SHOWN = 100;
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private final SiteSources sources;
  private final MarkdownRenderer markdown = new MarkdownRenderer();

  CatalogViews(SiteSources sources) {
    this.sources = sources;
  }

  /** The server at a glance. */
  record Summary(
      String name,
      String version,
      String uptime,
      String startedAt,
      boolean ready,
      List<String> transports,
      int sessions,
      long generation,
      int skills,
      Map<String, Integer> byState,
      List<Adapter> adapters,
      List<String> plugins,
      int pluginProblems) {}

  record Adapter(String id, String products, boolean ready, String detail) {}

  /** One skill in the catalog list. */
  record SkillRow(
      String name,
      String href,
      String description,
      String state,
      String scope,
      String dcc,
      List<String> tags,
      int tools,
      int errors,
      int warnings,
      String searchText) {}

  /** Filters of the catalog list, as given (for the form) and the choices offered. */
  record Filters(
      String q,
      String state,
      String scope,
      String dcc,
      String tag,
      List<String> states,
      List<String> scopes,
      List<String> dccs,
      List<String> tags) {}

  record CatalogPage(Summary summary, Filters filters, List<SkillRow> skills, int total) {}

  record DiagnosticView(
      String severity, String code, String message, String location, String hint, String skill) {}

  record ToolView(
      String name,
      String description,
      List<SchemaFields.Field> fields,
      List<String> traits,
      String binding,
      String schemaJson) {}

  record PromptView(String name, String description, List<String> arguments) {}

  record ResourceView(String uri, String name, String description, String mimeType) {}

  record WorkflowView(String name, String description, int steps) {}

  /** One copy of a skill (the served one, or one that a higher scope shadows). */
  record SkillCopy(
      String anchor,
      String state,
      String scope,
      String directory,
      String skillFile,
      String stateReason,
      List<DiagnosticView> diagnostics) {}

  record SkillPage(
      String name,
      String description,
      String state,
      String scope,
      String dcc,
      String version,
      List<String> tags,
      List<String> depends,
      String instructionsHtml,
      List<ToolView> tools,
      List<PromptView> prompts,
      List<ResourceView> resources,
      List<WorkflowView> workflows,
      List<SkillCopy> copies) {}

  record CallView(
      String time,
      String session,
      String tool,
      String duration,
      String outcome,
      boolean error,
      String arguments,
      String instance) {}

  record MetricView(String tool, long calls, long errors, String p50, String p95, String max) {}

  record CallsPage(List<CallView> calls, List<MetricView> metrics) {}

  record JobView(
      String id,
      String tool,
      String instance,
      String status,
      String progress,
      String created,
      String started,
      String completed,
      String error) {}

  record RunView(
      String id, String workflow, String status, String step, String created, String error) {}

  record JobsPage(List<JobView> jobs, List<RunView> runs) {}

  record ServerPage(Summary summary, List<DiagnosticView> diagnostics) {}

  Summary summary() {
    ServerStatus status = sources.introspection().status();
    Map<String, Integer> byState = new LinkedHashMap<>();
    int total = 0;
    for (SkillState state : SkillState.values()) {
      int n = status.skillsByState().getOrDefault(state, 0);
      byState.put(
          switch (state) {
            case AVAILABLE -> "Available";
            case PENDING_DEPS -> "Awaiting dependencies";
            case SHADOWED -> "Shadowed";
            case SKIPPED -> "Skipped";
            case DENIED -> "Denied";
          },
          n);
      total += n;
    }
    List<Adapter> adapters = new ArrayList<>();
    for (AdapterStatus a : status.adapters()) {
      adapters.add(
          new Adapter(
              a.id(),
              String.join(", ", a.products()),
              a.ready(),
              sources.masking().text(a.detail() == null ? "" : a.detail())));
    }
    return new Summary(
        sources.name(),
        status.version(),
        duration(status.uptime()),
        time(status.startedAt()),
        sources.ready().getAsBoolean(),
        status.transports(),
        status.sessions(),
        status.catalogGeneration(),
        total,
        byState,
        adapters,
        status.plugins(),
        status.pluginProblems());
  }

  /** The catalog list, filtered: every word of {@code q} must match, or search ranks it. */
  CatalogPage catalog(String q, String state, String scope, String dcc, String tag) {
    Catalog catalog = sources.catalog().get();
    Map<String, List<Diagnostic>> bySkill = diagnosticsBySkill(catalog);
    Set<String> states = new TreeSet<>();
    Set<String> scopes = new TreeSet<>();
    Set<String> dccs = new TreeSet<>();
    Set<String> tags = new TreeSet<>();
    for (Skill s : catalog.skills()) {
      states.add(s.state().label());
      scopes.add(s.scope().name().toLowerCase(Locale.ROOT));
      dccs.add(s.manifest().extensions().dcc());
      tags.addAll(s.manifest().extensions().discovery().tags());
    }
    List<Skill> ordered = order(catalog, q);
    List<SkillRow> rows = new ArrayList<>();
    for (Skill s : ordered) {
      if (!blank(state) && !s.state().label().equals(state)
          || !blank(scope) && !s.scope().name().equalsIgnoreCase(scope)
          || !blank(dcc) && !s.manifest().extensions().dcc().equals(dcc)
          || !blank(tag) && !s.manifest().extensions().discovery().tags().contains(tag)) {
        continue;
      }
      rows.add(row(s, bySkill.getOrDefault(s.name(), List.of())));
    }
    return new CatalogPage(
        summary(),
        new Filters(
            nz(q),
            nz(state),
            nz(scope),
            nz(dcc),
            nz(tag),
            List.copyOf(states),
            List.copyOf(scopes),
            List.copyOf(dccs),
            List.copyOf(tags)),
        rows,
        catalog.skills().size());
  }

  /**
   * Skills in the order shown: without a query by name (served copy first); with one, the search
   * engine's ranked hits first, then every other skill whose text holds each word of the query.
   */
  private List<Skill> order(Catalog catalog, String q) {
    List<Skill> all = new ArrayList<>(catalog.skills());
    all.sort(
        Comparator.comparing(Skill::name)
            .thenComparing(s -> s.state() == SkillState.SHADOWED)
            .thenComparing(s -> s.scope().ordinal(), Comparator.reverseOrder()));
    if (blank(q)) {
      return all;
    }
    Set<Skill> out = new LinkedHashSet<>();
    try {
      for (SkillHit hit :
          catalog.searchIndex().search(new SkillQuery(q, List.of(), null, null, 100, true))) {
        out.add(hit.skill());
      }
    } catch (RuntimeException e) {
      // The ranked part is a bonus; the plain match below still answers.
    }
    String[] words = q.toLowerCase(Locale.ROOT).trim().split("\\s+");
    for (Skill s : all) {
      String text = searchText(s);
      boolean every = true;
      for (String w : words) {
        every &= text.contains(w);
      }
      if (every) {
        out.add(s);
      }
    }
    return List.copyOf(out);
  }

  private SkillRow row(Skill s, List<Diagnostic> diagnostics) {
    int errors = 0;
    int warnings = 0;
    for (Diagnostic d : diagnostics) {
      switch (d.severity()) {
        case ERROR -> errors++;
        case WARNING -> warnings++;
        default -> {}
      }
    }
    String description = sources.masking().text(s.manifest().description());
    return new SkillRow(
        s.name(),
        href(s.name()) + (s.state() == SkillState.SHADOWED ? "#" + anchor(s) : ""),
        description.length() > 240 ? description.substring(0, 240) + "…" : description,
        s.state().label(),
        s.scope().name().toLowerCase(Locale.ROOT),
        s.manifest().extensions().dcc(),
        s.manifest().extensions().discovery().tags(),
        s.tools().size(),
        errors,
        warnings,
        sources.masking().text(searchText(s)));
  }

  private static String searchText(Skill s) {
    StringBuilder b =
        new StringBuilder(s.name())
            .append(' ')
            .append(s.manifest().description())
            .append(' ')
            .append(s.manifest().extensions().dcc());
    s.manifest().extensions().discovery().tags().forEach(t -> b.append(' ').append(t));
    s.tools().forEach(t -> b.append(' ').append(t.name()));
    return b.toString().toLowerCase(Locale.ROOT);
  }

  /** The page of every skill named {@code name}, the served copy first; empty when none is. */
  Optional<SkillPage> skill(String name) {
    Catalog catalog = sources.catalog().get();
    List<Skill> copies =
        catalog.skills().stream()
            .filter(s -> s.name().equals(name))
            .sorted(
                Comparator.comparing((Skill s) -> s.state() == SkillState.SHADOWED)
                    .thenComparing(s -> s.scope().ordinal(), Comparator.reverseOrder()))
            .toList();
    if (copies.isEmpty()) {
      return Optional.empty();
    }
    Skill main = copies.get(0);
    Masking m = sources.masking();
    List<ToolView> tools = new ArrayList<>();
    for (ToolSpec t : main.tools()) {
      tools.add(
          new ToolView(
              t.name(),
              m.text(t.description()),
              SchemaFields.of(t.inputSchema(), m),
              traits(t),
              t.binding().describe(),
              m.values(SchemaFields.masked(t.inputSchema(), m).toPrettyString())));
    }
    List<PromptView> prompts = new ArrayList<>();
    for (PromptSpec p : main.prompts()) {
      List<String> args = new ArrayList<>();
      for (PromptArgument a : p.arguments()) {
        args.add(a.name() + (a.required() ? " (required)" : ""));
      }
      prompts.add(new PromptView(p.name(), m.text(p.description()), args));
    }
    List<ResourceView> resources = new ArrayList<>();
    for (ResourceSpec r : main.resources()) {
      resources.add(new ResourceView(r.uri(), r.name(), m.text(r.description()), nz(r.mimeType())));
    }
    List<WorkflowView> workflows = new ArrayList<>();
    for (WorkflowSpec w : main.workflows()) {
      workflows.add(new WorkflowView(w.name(), m.text(w.description()), w.steps().size()));
    }
    Map<String, List<Diagnostic>> bySkill = diagnosticsBySkill(catalog);
    List<SkillCopy> views = new ArrayList<>();
    for (Skill copy : copies) {
      List<DiagnosticView> diagnostics = new ArrayList<>();
      for (Diagnostic d : bySkill.getOrDefault(name, List.of())) {
        if (d.file() == null || d.file().startsWith(copy.location().directory())) {
          diagnostics.add(diagnostic(d));
        }
      }
      views.add(
          new SkillCopy(
              anchor(copy),
              copy.state().label(),
              copy.scope().name().toLowerCase(Locale.ROOT),
              copy.location().directory().toString(),
              copy.location().skillFile().toString(),
              stateReason(catalog, copy),
              diagnostics));
    }
    return Optional.of(
        new SkillPage(
            main.name(),
            m.text(main.manifest().description()),
            main.state().label(),
            main.scope().name().toLowerCase(Locale.ROOT),
            main.manifest().extensions().dcc(),
            main.manifest().extensions().version(),
            main.manifest().extensions().discovery().tags(),
            main.manifest().extensions().depends(),
            markdown.render(m.text(main.manifest().body())),
            tools,
            prompts,
            resources,
            workflows,
            views));
  }

  private static List<String> traits(ToolSpec t) {
    List<String> out = new ArrayList<>();
    ToolAnnotations a = t.annotations();
    if (Boolean.TRUE.equals(a.readOnlyHint())) {
      out.add("read-only");
    }
    if (Boolean.TRUE.equals(a.destructiveHint())) {
      out.add("destructive");
    }
    if (Boolean.TRUE.equals(a.idempotentHint())) {
      out.add("idempotent");
    }
    if (Boolean.TRUE.equals(a.openWorldHint())) {
      out.add("open world");
    }
    out.add(t.execution().name().toLowerCase(Locale.ROOT));
    if (t.group() != null) {
      out.add("group " + t.group());
    }
    if (t.timeoutHintSecs() != null) {
      out.add("timeout " + t.timeoutHintSecs() + " s");
    }
    out.add("thread " + t.affinity().name().toLowerCase(Locale.ROOT));
    return out;
  }

  /** Why a skill is in its state, in a sentence (empty for an available skill). */
  private static String stateReason(Catalog catalog, Skill s) {
    return switch (s.state()) {
      case AVAILABLE -> "";
      case SHADOWED ->
          "Shadowed by the skill of the same name at "
              + s.shadowedBy()
              + ": a higher scope (or, within a scope, an earlier root) wins.";
      case PENDING_DEPS -> {
        List<String> missing = new ArrayList<>();
        for (String dep : s.manifest().extensions().depends()) {
          boolean present =
              catalog.skill(dep).map(d -> d.state() == SkillState.AVAILABLE).orElse(false);
          if (!present) {
            missing.add(dep);
          }
        }
        yield "Waiting for "
            + (missing.isEmpty() ? "its dependencies" : String.join(", ", missing))
            + ": it becomes available when they are.";
      }
      case SKIPPED -> "Rejected by the errors below; fix them and it is read again.";
      case DENIED ->
          "Denied by the server's allow or deny list (see below); only its operator can"
              + " change that.";
    };
  }

  private DiagnosticView diagnostic(Diagnostic d) {
    StringBuilder at = new StringBuilder();
    if (d.file() != null) {
      at.append(d.file());
      if (d.line() > 0) {
        at.append(':').append(d.line());
        if (d.column() > 0) {
          at.append(':').append(d.column());
        }
      }
    }
    Masking m = sources.masking();
    return new DiagnosticView(
        d.severity().label(),
        d.code().name(),
        m.text(d.message()),
        at.toString(),
        m.text(nz(d.hint())),
        d.skill() == null ? "" : d.skill());
  }

  private static Map<String, List<Diagnostic>> diagnosticsBySkill(Catalog catalog) {
    Map<String, List<Diagnostic>> out = new LinkedHashMap<>();
    for (Diagnostic d : catalog.diagnostics()) {
      if (d.skill() != null) {
        out.computeIfAbsent(d.skill(), k -> new ArrayList<>()).add(d);
      }
    }
    return out;
  }

  /** The calls {@code viewer} may see: its own, or every caller's for an operator. */
  CallsPage calls(Principal viewer) {
    List<CallView> calls = new ArrayList<>();
    for (AuditEntry e : sources.introspection().recentCalls(viewer)) {
      if (calls.size() >= CALLS_SHOWN) {
        break;
      }
      calls.add(
          new CallView(
              time(e.time()),
              e.session() == null ? "" : e.session(),
              e.tool(),
              millis(e.duration()),
              e.outcome(),
              e.isError(),
              String.join(", ", e.argumentNames()),
              nz(e.instance())));
    }
    List<MetricView> metrics = new ArrayList<>();
    for (ToolMetrics t : sources.introspection().toolMetrics(viewer)) {
      metrics.add(
          new MetricView(
              t.tool(), t.calls(), t.errors(), millis(t.p50()), millis(t.p95()), millis(t.max())));
    }
    return new CallsPage(calls, metrics);
  }

  /** The jobs and runs {@code viewer} may see: its own, or every caller's for an operator. */
  JobsPage jobs(Principal viewer) {
    List<JobView> jobs = new ArrayList<>();
    for (JobRecord j : sources.recentJobs().apply(viewer, JOBS_SHOWN)) {
      jobs.add(job(j));
    }
    List<RunView> runs = new ArrayList<>();
    for (JsonNode r : sources.recentRuns().apply(viewer, RUNS_SHOWN)) {
      runs.add(run(r));
    }
    return new JobsPage(jobs, runs);
  }

  JobView job(JobRecord j) {
    return new JobView(
        j.id(),
        j.tool(),
        nz(j.instance()),
        j.status().wire(),
        progress(j.progress()),
        time(j.createdAt()),
        time(j.startedAt()),
        time(j.completedAt()),
        sources.masking().text(nz(j.error())));
  }

  RunView run(JsonNode r) {
    return new RunView(
        r.path("run_id").asText(),
        r.path("workflow").asText(),
        r.path("status").asText(),
        r.path("current_step").asText(""),
        instant(r.path("created_at").asText("")),
        sources.masking().text(r.path("error").asText("")));
  }

  ServerPage server() {
    List<DiagnosticView> diagnostics = new ArrayList<>();
    for (Diagnostic d : sources.introspection().pluginDiagnostics()) {
      diagnostics.add(diagnostic(d));
    }
    for (Diagnostic d : sources.catalog().get().diagnostics()) {
      if (d.skill() == null) {
        diagnostics.add(diagnostic(d));
      }
    }
    return new ServerPage(summary(), diagnostics);
  }

  static String href(String skillName) {
    return "/skills/" + URLEncoder.encode(skillName, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A stable fragment id for one copy of a skill (its scope and folder). */
  static String anchor(Skill s) {
    return "copy-"
        + s.scope().name().toLowerCase(Locale.ROOT)
        + "-"
        + Integer.toHexString(s.location().directory().toString().hashCode());
  }

  private static String progress(JsonNode p) {
    if (p == null || !p.has("progress")) {
      return "";
    }
    String done = number(p.get("progress").asDouble());
    String text = p.has("total") ? done + " / " + number(p.get("total").asDouble()) : done;
    return p.hasNonNull("message") ? text + " " + p.get("message").asText() : text;
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
  }

  static String time(Instant t) {
    return t == null ? "" : TIME.format(t);
  }

  private static String instant(String iso) {
    try {
      return iso.isEmpty() ? "" : time(Instant.parse(iso));
    } catch (java.time.format.DateTimeParseException e) {
      return iso;
    }
  }

  static String millis(Duration d) {
    double ms = d.toNanos() / 1e6;
    return ms < 10
        ? String.format(Locale.ROOT, "%.2f ms", ms)
        : String.format(Locale.ROOT, "%.0f ms", ms);
  }

  static String duration(Duration d) {
    long s = d.getSeconds();
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return s / 60 + " min";
    }
    if (s < 86_400) {
      return s / 3600 + " h " + (s % 3600) / 60 + " min";
    }
    return s / 86_400 + " d " + (s % 86_400) / 3600 + " h";
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
