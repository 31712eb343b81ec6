package dev.skillport.server.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.ProtocolVersion;
import dev.skillport.mcp.RequestListener;
import dev.skillport.mcp.SessionListener;
import dev.skillport.mcp.transport.EdgeListener;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.server.app.CatalogReloader;
import dev.skillport.web.MetricsExposition;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The server's metrics in one Prometheus registry: tool calls by tool and outcome with their
 * latency, jobs and workflow runs by state, MCP sessions by protocol revision, the catalog's size,
 * reloads and their duration, script processes running, and what the HTTP edge refused (wrong
 * tokens, limited clients, overload). Counters move as things happen (the {@code on*} methods are
 * wired to the application's listeners); gauges are read when scraped.
 *
 * <p>Label values that clients choose (tool names) are bounded: at most {@value #MAX_TOOLS} tool
 * names get series of their own, the rest share {@value #OTHER}; a call to a tool that does not
 * exist counts under {@value #UNKNOWN}.
 */
public final class ServerMetrics implements MetricsExposition {
  static final int MAX_TOOLS = 512;
  static final String OTHER = "(other)";
  static final String UNKNOWN = "(unknown)";

  /** The {@code outcome} label values of the call counter, indexed by the constants below. */
  private static final String[] OUTCOMES = {"ok", "queued", "unknown_tool", "error"};

  private static final int OK = 0;
  private static final int QUEUED = 1;
  private static final int UNKNOWN_TOOL = 2;
  private static final int ERROR = 3;
  private static final double[] CALL_BOUNDS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300
  };
  private static final double[] RELOAD_BOUNDS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Map<String, ToolSeries> toolSeries = new ConcurrentHashMap<>();
  private final Counter calls;
  private final Histogram callSeconds;
  private final Counter jobsFinished;
  private final Counter runsFinished;
  private final Counter sessionsOpened;
  private final Counter requests;
  private final Counter restRequests;
  private final Map<Era, Map<String, CounterDataPoint>> requestSeries = new EnumMap<>(Era.class);
  private final Counter reloads;
  private final Histogram reloadSeconds;
  private final Map<EdgeListener.Event, CounterDataPoint> edgeSeries =
      new EnumMap<>(EdgeListener.Event.class);
  // Cleared for a server no endpoint scrapes (stdio): its series would be counted for nobody, at a
  // few percent of every call's CPU (decision 0035).
  private volatile boolean counting = true;
  // The unfinished jobs of the whole fleet by instance and state; see fleetJobs(...).
  private volatile Supplier<Map<String, Map<JobStatus, Integer>>> fleetJobs = Map::of;
  // This server's name in a fleet and its store kind; see instance(...).
  private final java.util.concurrent.atomic.AtomicReference<String[]> instance =
      new java.util.concurrent.atomic.AtomicReference<>(new String[] {"local", "embedded"});

  /**
   * Metrics over the given live views of a server.
   *
   * @param catalog the catalog now served
   * @param activeJobs the jobs not yet finished, by status
   * @param openSessions sessions open now
   * @param runningScripts script tools running now
   */
  public ServerMetrics(
      Supplier<Catalog> catalog,
      Supplier<Map<JobStatus, Integer>> activeJobs,
      IntSupplier openSessions,
      IntSupplier runningScripts) {
    calls =
        Counter.builder()
            .name("skillport_tool_calls_total")
            .help("Finished tool calls by tool and outcome (ok, queued, error, unknown_tool)")
            .labelNames("tool", "outcome")
            .register(registry);
    callSeconds =
        Histogram.builder()
            .name("skillport_tool_call_duration_seconds")
            .help("How long tool calls took, by tool (a job's run counts as '<tool> (job)')")
            .labelNames("tool")
            .classicOnly()
            .classicUpperBounds(CALL_BOUNDS)
            .withoutExemplars()
            .register(registry);
    jobsFinished =
        Counter.builder()
            .name("skillport_jobs_finished_total")
            .help("Jobs that reached a final state, by state")
            .labelNames("state")
            .register(registry);
    GaugeWithCallback.builder()
        .name("skillport_jobs_active")
        .help("Jobs not yet finished, by state (pending, running)")
        .labelNames("state")
        .callback(
            cb -> {
              Map<JobStatus, Integer> counts = new EnumMap<>(JobStatus.class);
              counts.put(JobStatus.PENDING, 0);
              counts.put(JobStatus.RUNNING, 0);
              counts.putAll(activeJobs.get());
              counts.forEach((status, n) -> cb.call(n, status.wire()));
            })
        .register(registry);
    runsFinished =
        Counter.builder()
            .name("skillport_workflow_runs_finished_total")
            .help("Workflow runs that reached a final state, by state")
            .labelNames("state")
            .register(registry);
    sessionsOpened =
        Counter.builder()
            .name("skillport_mcp_sessions_opened_total")
            .help("MCP sessions opened, by the protocol revision they negotiated")
            .labelNames("protocol_version")
            .register(registry);
    requests =
        Counter.builder()
            .name("skillport_mcp_requests_total")
            .help(
                "MCP requests received, by era (legacy: 2025-11-25 and older, in sessions;"
                    + " modern: 2026-07-28, stateless) and method ((unknown) for methods not served)")
            .labelNames("era", "method")
            .register(registry);
    for (Era era : Era.values()) {
      requestSeries.put(era, new ConcurrentHashMap<>());
    }
    restRequests =
        Counter.builder()
            .name("skillport_rest_requests_total")
            .help(
                "Requests to the REST skill API (/v1), by operation (skills, skill, tool, call,"
                    + " call_batch, job, job_cancel, openapi) and HTTP status")
            .labelNames("operation", "status")
            .register(registry);
    edgeSeries.put(
        EdgeListener.Event.AUTH_FAILED,
        Counter.builder()
            .name("skillport_auth_failures_total")
            .help("Wrong tokens presented to /mcp, the page or the login form (answered 401)")
            .register(registry)
            .labelValues());
    edgeSeries.put(
        EdgeListener.Event.AUTH_LIMITED,
        Counter.builder()
            .name("skillport_auth_limited_total")
            .help(
                "Token checks answered 429 because the client, or the token, sent too many wrong"
                    + " tokens in a minute")
            .register(registry)
            .labelValues());
    edgeSeries.put(
        EdgeListener.Event.OVERLOADED,
        Counter.builder()
            .name("skillport_http_overloaded_total")
            .help(
                "Requests answered 503 with Retry-After because the server was at its request or"
                    + " connection limit")
            .register(registry)
            .labelValues());
    GaugeWithCallback.builder()
        .name("skillport_instance_info")
        .help(
            "Always 1: names this server in a fleet (its instance in the shared store, or 'local')"
                + " and its store kind")
        .labelNames("skillport_instance", "store")
        .callback(cb -> cb.call(1, instance.get()[0], instance.get()[1]))
        .register(registry);
    GaugeWithCallback.builder()
        .name("skillport_fleet_jobs_active")
        .help(
            "On a shared store: the whole fleet's unfinished jobs, by the instance running them"
                + " and state (pending, running)")
        .labelNames("skillport_instance", "state")
        .callback(
            cb -> {
              Map<String, Map<JobStatus, Integer>> byInstance;
              try {
                byInstance = fleetJobs.get();
              } catch (RuntimeException e) {
                return; // the store cannot be read now: /readyz says why
              }
              byInstance.forEach(
                  (name, counts) -> counts.forEach((status, n) -> cb.call(n, name, status.wire())));
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("skillport_mcp_sessions_open")
        .help("MCP sessions open now (2025-era clients; 2026-07-28 requests have none)")
        .callback(cb -> cb.call(openSessions.getAsInt()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("skillport_catalog_skills")
        .help("Skills in the catalog now served, by state")
        .labelNames("state")
        .callback(
            cb -> {
              Map<SkillState, Integer> byState = new EnumMap<>(SkillState.class);
              for (SkillState state : SkillState.values()) {
                byState.put(state, 0);
              }
              for (Skill skill : catalog.get().skills()) {
                byState.merge(skill.state(), 1, Integer::sum);
              }
              byState.forEach((state, n) -> cb.call(n, state.label()));
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("skillport_catalog_generation")
        .help("The generation of the catalog now served (grows with every change read)")
        .callback(cb -> cb.call(catalog.get().generation()))
        .register(registry);
    reloads =
        Counter.builder()
            .name("skillport_catalog_reloads_total")
            .help("Times the skill roots were read, by whether the catalog changed")
            .labelNames("changed")
            .register(registry);
    reloadSeconds =
        Histogram.builder()
            .name("skillport_catalog_reload_duration_seconds")
            .help("How long reading the skill roots and building the catalog took")
            .classicOnly()
            .classicUpperBounds(RELOAD_BOUNDS)
            .withoutExemplars()
            .register(registry);
    GaugeWithCallback.builder()
        .name("skillport_script_processes_running")
        .help("Script tools running now, each as one process tree")
        .callback(cb -> cb.call(runningScripts.getAsInt()))
        .register(registry);
    // Series that exist before the first event, so a rate over them starts at zero.
    for (JobStatus status : JobStatus.values()) {
      if (status.terminal()) {
        jobsFinished.labelValues(status.wire());
      }
    }
    for (String state : new String[] {"completed", "failed", "cancelled", "interrupted"}) {
      runsFinished.labelValues(state);
    }
    for (ProtocolVersion version : ProtocolVersion.values()) {
      if (version.era() == Era.LEGACY) {
        sessionsOpened.labelValues(version.wire());
      }
    }
    reloads.labelValues("true");
    reloads.labelValues("false");
  }

  /**
   * Names this server in {@code skillport_instance_info}: {@code name} is its instance in a shared
   * store, {@code store} the store's kind ({@code embedded}, {@code shared}).
   */
  public void instance(String name, String store) {
    instance.set(new String[] {name, store});
  }

  /**
   * Reads {@code skillport_fleet_jobs_active} from {@code byInstance} when scraped: the unfinished
   * jobs of every instance on the shared store.
   */
  public void fleetJobs(Supplier<Map<String, Map<JobStatus, Integer>>> byInstance) {
    fleetJobs = java.util.Objects.requireNonNull(byInstance, "byInstance");
  }

  /**
   * Stops counting: this server has no endpoint that scrapes the series (a stdio server has no
   * {@code GET /metrics}). Gauges are still read when scraped.
   */
  public void stopCounting() {
    counting = false;
  }

  /**
   * One answered request of the REST skill API; {@code operation} is one of a fixed set, so the
   * series stay few.
   */
  public void onRestRequest(String operation, int status) {
    if (counting) {
      restRequests.labelValues(operation, Integer.toString(status)).inc();
    }
  }

  /** One finished tool call, as the call statistics record it. */
  public void onCall(AuditEntry call) {
    if (!counting) {
      return;
    }
    int outcome =
        switch (call.outcome()) {
          case "ok" -> OK;
          case "queued" -> QUEUED;
          case "UNKNOWN_TOOL" -> UNKNOWN_TOOL;
          default -> ERROR;
        };
    ToolSeries series =
        outcome == UNKNOWN_TOOL ? toolSeries(UNKNOWN, true) : toolSeries(call.tool(), false);
    series.calls(outcome).inc();
    series.seconds.observe(call.duration().toNanos() / 1e9);
  }

  /** A tool's series, made at its first call; past {@value #MAX_TOOLS} names, {@code other}'s. */
  private ToolSeries toolSeries(String tool, boolean fixed) {
    ToolSeries series = toolSeries.get(tool);
    if (series != null) {
      return series;
    }
    // A few racing first calls may pass the bound together, which is harmless.
    String label = fixed || toolSeries.size() < MAX_TOOLS ? tool : OTHER;
    return toolSeries.computeIfAbsent(label, l -> new ToolSeries(l, callSeconds.labelValues(l)));
  }

  /**
   * One tool label's series: the duration histogram, and a call counter per outcome, each made when
   * first counted (a series only appears once it has counted something).
   */
  private final class ToolSeries {
    final String label;
    final DistributionDataPoint seconds;
    private final AtomicReferenceArray<CounterDataPoint> calls =
        new AtomicReferenceArray<>(OUTCOMES.length);

    ToolSeries(String label, DistributionDataPoint seconds) {
      this.label = label;
      this.seconds = seconds;
    }

    CounterDataPoint calls(int outcome) {
      CounterDataPoint c = calls.get(outcome);
      if (c == null) {
        // labelValues answers the one series of these labels, so a racing twin is the same.
        c = ServerMetrics.this.calls.labelValues(label, OUTCOMES[outcome]);
        calls.set(outcome, c);
      }
      return c;
    }
  }

  /** A job's state changed; a final state is counted. */
  public void onJob(JobRecord job) {
    if (counting && job.status().terminal()) {
      jobsFinished.labelValues(job.status().wire()).inc();
    }
  }

  /** A workflow run changed ({@code notifications/$/dcc.workflowUpdated} shape). */
  public void onRun(JsonNode update) {
    if (!counting) {
      return;
    }
    String status = update.path("status").asText("");
    switch (status) {
      case "completed", "failed", "cancelled", "interrupted" ->
          runsFinished.labelValues(status).inc();
      default -> {
        // pending, running and awaiting_approval are not final
      }
    }
  }

  /** The skill roots were read. */
  public void onReload(CatalogReloader.Reload reload) {
    if (!counting) {
      return;
    }
    reloads.labelValues(Boolean.toString(reload.swapped())).inc();
    reloadSeconds.observe(reload.took().toNanos() / 1e9);
  }

  /** Counts sessions as they open, by their negotiated revision. */
  public SessionListener sessionListener() {
    return new SessionListener() {
      @Override
      public void sessionOpened(McpSession session) {
        if (!counting) {
          return;
        }
        sessionsOpened
            .labelValues(session.protocolVersion().map(ProtocolVersion::wire).orElse("unknown"))
            .inc();
      }
    };
  }

  /** Counts requests as they arrive, by era and method. */
  public RequestListener requestListener() {
    return (era, method) -> {
      if (counting) {
        requestSeries
            .get(era)
            .computeIfAbsent(
                method, m -> requests.labelValues(era.name().toLowerCase(Locale.ROOT), m))
            .inc();
      }
    };
  }

  /** Counts what the HTTP edge refuses, by event. */
  public EdgeListener edgeListener() {
    return event -> {
      if (counting) {
        edgeSeries.get(event).inc();
      }
    };
  }

  @Override
  public String contentType() {
    return writer.getContentType();
  }

  /** Every metric now, in the Prometheus text format. */
  @Override
  public byte[] scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return out.toByteArray();
  }
}
