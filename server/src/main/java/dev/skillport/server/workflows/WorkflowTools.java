package dev.skillport.server.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.SessionListener;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.skill.WorkflowStep;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CallOutcome;
import dev.skillport.runtime.CapabilityRequiredException;
import dev.skillport.runtime.ClientReplies;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.server.app.SessionTools;
import dev.skillport.workflows.InlineWorkflow;
import dev.skillport.workflows.ResumeRefused;
import dev.skillport.workflows.RunClient;
import dev.skillport.workflows.Sleeper;
import dev.skillport.workflows.TemplateException;
import dev.skillport.workflows.ToolCaller;
import dev.skillport.workflows.WorkflowEngine;
import dev.skillport.workflows.WorkflowInputs;
import dev.skillport.workflows.WorkflowStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The {@code workflows_*} tools (mcp-surface.md section 4): listed in a session while one of its
 * loaded skills declares workflows. {@code workflows_run} starts a run in the background and
 * answers at once with its id; the session that started it receives {@code
 * notifications/$/dcc.workflowUpdated} on every change.
 */
public final class WorkflowTools implements SessionTools, AutoCloseable {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_RUNS = 8;

  /** The run id properties: {@code workflow_id} is upstream's name for {@code run_id}. */
  private static final String RUN_ID =
      "\"run_id\":{\"type\":\"string\"},\"workflow_id\":{\"type\":\"string\",\"description\":\"the same as run_id\"}";

  /** One of the two names is required. */
  private static final String RUN_ID_REQUIRED =
      "\"anyOf\":[{\"required\":[\"run_id\"]},{\"required\":[\"workflow_id\"]}]";

  /** How often a step that started a job looks at it. */
  /** How often a step waiting for its job looks whether the step was cancelled. */
  private static final long CANCEL_CHECK_MS = 200;

  private final CatalogHolder catalog;
  private final JobScheduler jobs;
  private final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
  private final Function<String, RunClient> clients;
  private final Sleeper sleeper;
  private final Clock clock;
  private final List<CoreTool> definitions = new ArrayList<>();
  private final List<Consumer<JsonNode>> runObservers = new CopyOnWriteArrayList<>();
  private final WorkflowEngine engine;

  /**
   * Tools over {@code catalog} whose runs are kept in {@code store}; a step whose call became a job
   * waits for it on {@code jobs}, the scheduler of the service the tools are given to.
   */
  public WorkflowTools(CatalogHolder catalog, JobScheduler jobs, WorkflowStore store) {
    this(catalog, jobs, store, null, Sleeper.REAL, Clock.systemUTC());
  }

  WorkflowTools(
      CatalogHolder catalog,
      JobScheduler jobs,
      WorkflowStore store,
      Function<String, RunClient> clients,
      Sleeper sleeper,
      Clock clock) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    this.clients = clients != null ? clients : this::sessionClient;
    this.sleeper = sleeper;
    this.clock = clock;
    this.engine = newEngine(Objects.requireNonNull(store, "store"));
    define(
        "workflows_run",
        "Start a workflow of a loaded skill (by name) or an inline spec; returns its run_id at"
            + " once. Progress arrives as notifications/$/dcc.workflowUpdated; read it with"
            + " workflows_get_status.",
        """
        {"type":"object","properties":{
          "name":{"type":"string","description":"workflow name, or <skill>/<name> when ambiguous"},
          "skill":{"type":"string","description":"the skill declaring the workflow named by name"},
          "spec":{"type":"object","description":"an inline workflow {name, steps, inputs?}"},
          "inputs":{"type":"object"},
          "idempotency_key":{"type":"string","description":"a run already started or completed with this key (templated with the inputs) is returned instead of starting another"}}}""",
        false);
    define(
        "workflows_get_status",
        "Show a run's status, each step's status, attempts, output and error, and the final"
            + " output.",
        """
        {"type":"object","properties":{%s},
         %s}"""
            .formatted(RUN_ID, RUN_ID_REQUIRED),
        true);
    define(
        "workflows_cancel",
        "Cancel a run: the step in flight is cancelled (a script is killed), later steps do not"
            + " run.",
        """
        {"type":"object","properties":{%s},
         %s}"""
            .formatted(RUN_ID, RUN_ID_REQUIRED),
        false);
    define(
        "workflows_lookup",
        "List the workflows of the loaded skills: name, skill, description, inputs and steps.",
        """
        {"type":"object","properties":{
          "query":{"type":"string","description":"words in the skill, name or description"},
          "skill":{"type":"string","description":"only this skill's workflows"},
          "name":{"type":"string","description":"only workflows of exactly this name"}}}""",
        true);
    define(
        "workflows_approve",
        "Answer a run's pending approve step (status awaiting_approval); approved false fails"
            + " the run.",
        """
        {"type":"object","properties":{
          %s,"step_id":{"type":"string"},
          "approved":{"type":"boolean"},"comment":{"type":"string"}},
         "required":["approved"],%s}"""
            .formatted(RUN_ID, RUN_ID_REQUIRED),
        false);
    define(
        "workflows_list",
        "List the workflows of the loaded skills: name, goal, skill, and each top-level step (as"
            + " a task: name, kind, tool). workflows_describe shows one in full.",
        """
        {"type":"object","properties":{}}""",
        true);
    define(
        "workflows_describe",
        "Describe one workflow of the loaded skills: goal, inputs and every step (nested ones"
            + " too), with its tool.",
        """
        {"type":"object","properties":{
          "name":{"type":"string","description":"workflow name (from workflows_list), or <skill>/<name>"}},
         "required":["name"]}""",
        true);
    define(
        "workflows_resume",
        "Resume an interrupted (or failed) run under the same id: steps that completed are not"
            + " run again, their recorded outputs are reused; force_steps runs named steps again."
            + " Answers at once; progress as for workflows_run.",
        """
        {"type":"object","properties":{
          %s,
          "force_steps":{"type":"array","items":{"type":"string"},"description":"step ids to run again although they completed"},
          "expected_spec_hash":{"type":"string","description":"the spec_hash workflows_get_status showed"},
          "strict":{"type":"boolean","description":"refuse (SPEC_CHANGED) when the stored spec's hash is not expected_spec_hash","default":false}},
         %s}"""
            .formatted(RUN_ID, RUN_ID_REQUIRED),
        false);
  }

  private WorkflowEngine newEngine(WorkflowStore store) {
    WorkflowEngine created =
        new WorkflowEngine(
            store, MAX_RUNS, sleeper, clock, () -> ThreadLocalRandom.current().nextDouble());
    created.observe(this::publish);
    return created;
  }

  private void publish(JsonNode update) {
    for (Consumer<JsonNode> observer : runObservers) {
      observer.accept(update);
    }
  }

  /**
   * Tells {@code observer} of every change of every run from now on, in the shape of {@code
   * notifications/$/dcc.workflowUpdated} ({@code run_id, workflow, status, current_step, steps,
   * error}).
   */
  public void addRunObserver(Consumer<JsonNode> observer) {
    runObservers.add(Objects.requireNonNull(observer, "observer"));
  }

  /**
   * The most recently started runs {@code viewer} may see ({@link Principal#sees(String)}) in the
   * {@code workflows_get_status} shape, newest first.
   */
  public List<JsonNode> recentRuns(Principal viewer, int limit) {
    return engine.recent(limit, viewer);
  }

  /** Whether {@code viewer} may see run {@code runId}: its own, or any for an operator. */
  public boolean seesRun(Principal viewer, String runId) {
    return viewer.operator() || engine.ownedBy(runId, viewer);
  }

  /** Tracks the MCP sessions, so a run reaches the session that started it. */
  public SessionListener sessionListener() {
    return new SessionListener() {
      @Override
      public void sessionOpened(McpSession session) {
        sessions.put(session.id(), session);
      }

      @Override
      public void sessionClosed(McpSession session) {
        sessions.remove(session.id());
      }
    };
  }

  @Override
  public void close() {
    engine.close();
  }

  @Override
  public List<CoreTool> definitions() {
    return List.copyOf(definitions);
  }

  @Override
  public boolean listedIn(Catalog catalog, SessionView view) {
    for (String name : view.loadedSkills()) {
      if (catalog.skill(name).map(s -> !s.workflows().isEmpty()).orElse(false)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public ToolResult call(
      String name,
      SessionState session,
      JsonNode args,
      ToolContext ctx,
      CallMeta meta,
      ToolCalling calls) {
    return switch (name) {
      case "workflows_run" -> run(session, args, meta, calls);
      case "workflows_get_status" -> status(ctx.principal(), args);
      case "workflows_cancel" -> cancel(ctx.principal(), args);
      case "workflows_lookup" -> lookup(session, args);
      case "workflows_approve" -> approve(ctx.principal(), args);
      case "workflows_list" -> list(session);
      case "workflows_describe" -> describeWorkflow(session, args);
      case "workflows_resume" -> resume(session, args, ctx.principal(), meta, calls);
      default ->
          ToolResult.failure(ToolFailureCode.ACTION_NOT_FOUND, "no tool '" + name + "'", null);
    };
  }

  private ToolResult run(SessionState session, JsonNode args, CallMeta meta, ToolCalling calls) {
    WorkflowSpec spec;
    String skill = null;
    if (args.hasNonNull("spec")) {
      try {
        spec = InlineWorkflow.parse(args.get("spec"));
      } catch (IllegalArgumentException e) {
        return ToolResult.failure(
            ToolFailureCode.WORKFLOW_INVALID,
            e.getMessage(),
            "fix the spec (skill-format.md section 7)");
      }
    } else if (args.hasNonNull("name")) {
      String wanted =
          args.hasNonNull("skill")
              ? args.get("skill").asText() + "/" + args.get("name").asText()
              : args.get("name").asText();
      List<Found> found = find(session.view(), wanted);
      if (found.isEmpty()) {
        return ToolResult.failure(
            ToolFailureCode.WORKFLOW_NOT_FOUND,
            "no loaded skill has a workflow '" + wanted + "'",
            "call workflows_lookup, or load_skill the skill that declares it");
      }
      if (found.size() > 1) {
        return ToolResult.failure(
            ToolFailureCode.WORKFLOW_AMBIGUOUS,
            "several loaded skills have a workflow '" + wanted + "'",
            "name it as <skill>/<workflow>: "
                + String.join(
                    ", ", found.stream().map(f -> f.skill + "/" + f.spec.name()).toList()));
      }
      spec = found.get(0).spec;
      skill = found.get(0).skill;
    } else {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS,
          "give name or spec",
          "for example {\"name\": \"convert-all\"}");
    }
    JsonNode given = args.path("inputs");
    if (!given.isMissingNode() && !given.isNull() && !given.isObject()) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS, "inputs must be an object", null);
    }
    ObjectNode inputs = given.isObject() ? (ObjectNode) given : NODES.objectNode();
    List<String> missing = WorkflowInputs.missing(spec.inputs(), inputs);
    if (!missing.isEmpty()) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS,
          "missing required inputs: " + String.join(", ", missing),
          "workflows_lookup shows the declared inputs");
    }
    ToolCaller caller = stepCaller(session, meta, calls);
    String runKey =
        args.hasNonNull("idempotency_key") ? args.get("idempotency_key").asText() : null;
    WorkflowEngine.Started started;
    try {
      started =
          engine.start(
              spec,
              skill,
              WorkflowInputs.withDefaults(spec.inputs(), inputs),
              meta.sessionId(),
              Principal.of(meta.principal()),
              caller,
              clients.apply(meta.sessionId()),
              runKey);
    } catch (TemplateException e) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS, "idempotency_key: " + e.getMessage(), null);
    }
    ObjectNode out =
        NODES
            .objectNode()
            .put("run_id", started.runId())
            .put("workflow_id", started.runId())
            .put("workflow", spec.name())
            .put("status", started.status());
    if (started.reused()) {
      out.put("reused", true);
    }
    String text =
        started.reused()
            ? "Workflow run " + started.runId() + " (" + started.status() + ") has this key already"
            : "Workflow run " + started.runId() + " started";
    return new ToolResult(List.of(new Content.Text(text)), out, false);
  }

  /** How the steps of a run started or resumed by {@code session} call their tools. */
  private ToolCaller stepCaller(SessionState session, CallMeta meta, ToolCalling calls) {
    CallMeta stepMeta = meta.synchronous();
    return (tool, a, c) -> {
      try {
        return stepResult(calls.call(session, tool, a, c, stepMeta), c);
      } catch (UnknownToolException e) {
        return errorResult(e.code(), e.getMessage() + " (" + e.hint() + ")");
      } catch (CapabilityRequiredException e) {
        return errorResult(ToolFailureCode.CAPABILITY_REQUIRED, e.getMessage());
      }
    };
  }

  /**
   * What a step reads of its call: the result, or, when the call became a job (a tool declaring
   * {@code execution: async}), the job's result once it finished; a cancelled step cancels the job.
   * The wait is on the job's completion, checking the step's cancellation every {@value
   * #CANCEL_CHECK_MS} ms.
   */
  private ToolResult stepResult(CallOutcome outcome, ToolContext ctx) {
    JobRecord queued = queuedJob(outcome);
    if (queued == null) {
      return outcome.ranResult().orElseThrow();
    }
    String jobId = queued.id();
    CompletableFuture<JobRecord> done = jobs.completion(jobId).orElse(null);
    if (done == null) {
      return errorResult(ToolFailureCode.JOB_NOT_FOUND, "job " + jobId + " of this step is gone");
    }
    try {
      while (true) {
        try {
          JobRecord job = done.get(CANCEL_CHECK_MS, TimeUnit.MILLISECONDS);
          return job.result() != null
              ? job.result().result()
              : errorResult(jobFailure(job.status()), "job " + jobId + ": " + job.error());
        } catch (TimeoutException e) {
          if (ctx.isCancelled()) {
            // The cancel may have interrupted this thread; the job store must not see that flag
            // (an interrupt inside a file channel closes it).
            boolean interrupted = Thread.interrupted();
            jobs.cancel(jobId);
            if (interrupted) {
              Thread.currentThread().interrupt();
            }
            return errorResult(ToolFailureCode.CANCELLED, "the step was cancelled");
          }
        }
      }
    } catch (InterruptedException e) {
      jobs.cancel(jobId);
      Thread.currentThread().interrupt();
      return errorResult(ToolFailureCode.CANCELLED, "the step was cancelled");
    } catch (ExecutionException e) {
      return errorResult(ToolFailureCode.JOB_FAILED, "job " + jobId + ": " + e.getCause());
    }
  }

  /** The job a call became, through {@code call_tool} too; null when it did not become one. */
  private static JobRecord queuedJob(CallOutcome outcome) {
    return outcome.accept(
        new CallOutcome.Visitor<JobRecord>() {
          @Override
          public JobRecord completed(CallOutcome.Completed completed) {
            return null;
          }

          @Override
          public JobRecord queued(CallOutcome.Queued queued) {
            return queued.job();
          }

          @Override
          public JobRecord refused(CallOutcome.Refused refused) {
            return null;
          }

          @Override
          public JobRecord delegated(CallOutcome.Delegated delegated) {
            return delegated.outcome().accept(this);
          }
        });
  }

  /** The failure a step reads for a job that ended without a result. */
  private static ToolFailureCode jobFailure(JobStatus status) {
    return switch (status) {
      case CANCELLED -> ToolFailureCode.JOB_CANCELLED;
      case INTERRUPTED -> ToolFailureCode.JOB_INTERRUPTED;
      case FAILED, COMPLETED -> ToolFailureCode.JOB_FAILED;
      case PENDING, RUNNING -> throw new IllegalStateException("job is not finished: " + status);
    };
  }

  private static ToolResult errorResult(ToolFailureCode code, String message) {
    return ToolResult.failure(code, message, null);
  }

  private record Found(String skill, WorkflowSpec spec) {}

  private List<Found> find(SessionView view, String name) {
    String skillPart = null;
    String wf = name;
    int slash = name.indexOf('/');
    int sep = name.indexOf("__");
    if (slash > 0) {
      skillPart = name.substring(0, slash);
      wf = name.substring(slash + 1);
    } else if (sep > 0) {
      skillPart = name.substring(0, sep);
      wf = name.substring(sep + 2);
    }
    List<Found> out = new ArrayList<>();
    for (Skill s : loadedWithWorkflows(view)) {
      for (WorkflowSpec spec : s.workflows()) {
        boolean skillMatches = skillPart == null || s.name().equals(skillPart);
        if (skillMatches && spec.name().equals(wf)) {
          out.add(new Found(s.name(), spec));
        } else if (skillPart != null && spec.name().equals(name)) {
          // A workflow whose own name contains '/' or '__'.
          out.add(new Found(s.name(), spec));
        }
      }
    }
    return out;
  }

  private List<Skill> loadedWithWorkflows(SessionView view) {
    Catalog snapshot = catalog.current();
    List<Skill> out = new ArrayList<>();
    for (String name : view.loadedSkills()) {
      snapshot.skill(name).filter(s -> !s.workflows().isEmpty()).ifPresent(out::add);
    }
    return out;
  }

  /** The run a call names: {@code run_id}, or upstream's {@code workflow_id}. */
  private static String runId(JsonNode args) {
    return args.hasNonNull("run_id")
        ? args.get("run_id").asText("")
        : args.path("workflow_id").asText("");
  }

  private ToolResult status(Principal caller, JsonNode args) {
    String id = runId(args);
    if (!engine.ownedBy(id, caller)) {
      return noSuchRun(id);
    }
    return engine.status(id).map(ToolResult::structured).orElseGet(() -> noSuchRun(id));
  }

  private ToolResult cancel(Principal caller, JsonNode args) {
    String id = runId(args);
    if (!engine.ownedBy(id, caller)) {
      return noSuchRun(id);
    }
    boolean cancelled = engine.cancel(id);
    return ToolResult.structured(
        NODES.objectNode().put("run_id", id).put("workflow_id", id).put("cancelled", cancelled));
  }

  private ToolResult approve(Principal caller, JsonNode args) {
    String id = runId(args);
    if (!args.path("approved").isBoolean()) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS, "approved must be true or false", null);
    }
    if (!engine.ownedBy(id, caller)) {
      return noSuchRun(id);
    }
    WorkflowEngine.ApprovalOutcome outcome =
        engine.approve(
            id,
            args.hasNonNull("step_id") ? args.get("step_id").asText() : null,
            args.get("approved").asBoolean(),
            args.hasNonNull("comment") ? args.get("comment").asText() : null);
    if (!outcome.accepted()) {
      return ToolResult.failure(
          ToolFailureCode.NO_PENDING_APPROVAL,
          outcome.problem(),
          "workflows_get_status shows the run's state");
    }
    return ToolResult.structured(
        NODES
            .objectNode()
            .put("run_id", id)
            .put("workflow_id", id)
            .put("step_id", outcome.stepId())
            .put("approved", args.get("approved").asBoolean()));
  }

  private ToolResult lookup(SessionState session, JsonNode args) {
    String query = args.path("query").asText("").strip().toLowerCase(Locale.ROOT);
    String onlySkill = args.hasNonNull("skill") ? args.get("skill").asText() : null;
    String onlyName = args.hasNonNull("name") ? args.get("name").asText() : null;
    ObjectNode out = NODES.objectNode();
    ArrayNode list = out.putArray("workflows");
    for (Skill s : loadedWithWorkflows(session.view())) {
      if (onlySkill != null && !onlySkill.equals(s.name())) {
        continue;
      }
      for (WorkflowSpec spec : s.workflows()) {
        if (onlyName != null && !onlyName.equals(spec.name())) {
          continue;
        }
        String haystack =
            (s.name() + " " + spec.name() + " " + spec.description()).toLowerCase(Locale.ROOT);
        if (!query.isEmpty() && !haystack.contains(query)) {
          continue;
        }
        ObjectNode o = list.addObject();
        o.put("name", spec.name());
        o.put("skill", s.name());
        o.put("description", spec.description());
        o.set("inputs", spec.inputs() == null ? NODES.objectNode() : spec.inputs());
        if (spec.source() != null) {
          o.put("path", spec.source().toString());
        }
        ArrayNode steps = o.putArray("steps");
        describe(spec.steps(), steps);
      }
    }
    out.put("total", list.size());
    return ToolResult.structured(out);
  }

  private static void describe(List<WorkflowStep> list, ArrayNode into) {
    for (WorkflowStep step : list) {
      ObjectNode o = into.addObject().put("id", step.id()).put("kind", step.kind());
      step.accept(
          new WorkflowStep.Visitor<Void>() {
            @Override
            public Void tool(WorkflowStep.Tool t) {
              o.put("tool", t.tool());
              return null;
            }

            @Override
            public Void foreach(WorkflowStep.Foreach f) {
              describe(f.steps(), o.putArray("steps"));
              return null;
            }

            @Override
            public Void parallel(WorkflowStep.Parallel p) {
              describe(p.steps(), o.putArray("steps"));
              return null;
            }

            @Override
            public Void branch(WorkflowStep.Branch b) {
              describe(b.then(), o.putArray("then"));
              describe(b.otherwise(), o.putArray("else"));
              return null;
            }

            @Override
            public Void approve(WorkflowStep.Approve a) {
              return null;
            }
          });
    }
  }

  /**
   * {@code workflows_list}: upstream's envelope ({@code success, message, context: {workflows,
   * count}}) over the workflows of the caller's loaded skills, each in upstream's summary shape.
   */
  private ToolResult list(SessionState session) {
    ArrayNode list = NODES.arrayNode();
    for (Skill s : loadedWithWorkflows(session.view())) {
      for (WorkflowSpec spec : s.workflows()) {
        list.add(summary(s, spec));
      }
    }
    ObjectNode out = NODES.objectNode().put("success", true);
    out.put("message", list.size() + " workflow(s) available.");
    ObjectNode context = out.putObject("context");
    context.set("workflows", list);
    context.put("count", list.size());
    return ToolResult.structured(out);
  }

  /** {@code workflows_describe}: one workflow's summary with its declared inputs and every step. */
  private ToolResult describeWorkflow(SessionState session, JsonNode args) {
    String name = args.path("name").asText("");
    List<Found> found = find(session.view(), name);
    if (found.size() != 1) {
      List<String> available = new ArrayList<>();
      for (Skill s : loadedWithWorkflows(session.view())) {
        s.workflows().forEach(w -> available.add(s.name() + "/" + w.name()));
      }
      ObjectNode details = NODES.objectNode();
      available.forEach(details.putArray("available")::add);
      return found.isEmpty()
          ? ToolResult.failure(
              ToolFailureCode.WORKFLOW_NOT_FOUND,
              "no loaded skill has a workflow '" + name + "'",
              "workflows_list shows the workflows of the loaded skills",
              details)
          : ToolResult.failure(
              ToolFailureCode.WORKFLOW_AMBIGUOUS,
              "several loaded skills have a workflow '" + name + "'",
              "name it as <skill>/<workflow>",
              details);
    }
    Found one = found.get(0);
    Skill skill = catalog.current().skill(one.skill).orElseThrow();
    ObjectNode context = summary(skill, one.spec);
    context.set("inputs", one.spec.inputs() == null ? NODES.objectNode() : one.spec.inputs());
    if (one.spec.source() != null) {
      context.put("path", one.spec.source().toString());
    }
    describe(one.spec.steps(), context.putArray("steps"));
    ObjectNode out = NODES.objectNode().put("success", true);
    out.put("message", "Workflow '" + one.spec.name() + "': " + one.spec.description());
    out.set("context", context);
    return ToolResult.structured(out);
  }

  /**
   * Upstream's summary of a workflow ({@code name, goal, dcc, task_count, tasks: [{name, kind,
   * tool, description}]}, a task per top-level step) with ours: {@code skill, description}.
   */
  private static ObjectNode summary(Skill skill, WorkflowSpec spec) {
    ObjectNode o = NODES.objectNode();
    o.put("name", spec.name());
    o.put("goal", spec.description());
    o.put("dcc", skill.manifest().extensions().dcc());
    o.put("task_count", spec.steps().size());
    ArrayNode tasks = o.putArray("tasks");
    for (WorkflowStep step : spec.steps()) {
      ObjectNode t = tasks.addObject().put("name", step.id()).put("kind", step.kind());
      t.put("tool", step instanceof WorkflowStep.Tool tool ? tool.tool() : "");
      t.put("description", "");
    }
    o.put("skill", skill.name());
    o.put("description", spec.description());
    return o;
  }

  /**
   * {@code workflows_resume}: the caller's interrupted or failed run runs again under the same id,
   * its steps called in the resuming session; answers at once like {@code workflows_run}.
   */
  private ToolResult resume(
      SessionState session, JsonNode args, Principal caller, CallMeta meta, ToolCalling calls) {
    String id = runId(args);
    if (!engine.ownedBy(id, caller)) {
      return noSuchRun(id);
    }
    JsonNode force = args.path("force_steps");
    if (!force.isMissingNode() && !force.isNull() && !force.isArray()) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS, "force_steps must be a list of step ids", null);
    }
    List<String> forceSteps = new ArrayList<>();
    force.forEach(f -> forceSteps.add(f.asText()));
    WorkflowEngine.Resumed resumed;
    try {
      resumed =
          engine.resume(
              id,
              meta.sessionId(),
              stepCaller(session, meta, calls),
              clients.apply(meta.sessionId()),
              forceSteps,
              args.hasNonNull("expected_spec_hash")
                  ? args.get("expected_spec_hash").asText()
                  : null,
              args.path("strict").asBoolean(false));
    } catch (ResumeRefused e) {
      return switch (e.reason()) {
        case NOT_FOUND -> noSuchRun(id);
        case NOT_RESUMABLE ->
            ToolResult.failure(
                ToolFailureCode.RUN_NOT_RESUMABLE,
                e.getMessage(),
                "workflows_get_status shows the run's state");
        case SPEC_CHANGED ->
            ToolResult.failure(
                ToolFailureCode.SPEC_CHANGED,
                e.getMessage(),
                "resume without strict to run the stored spec, or start a new run");
        case UNKNOWN_STEP ->
            ToolResult.failure(ToolFailureCode.INVALID_ARGUMENTS, e.getMessage(), null);
      };
    }
    ObjectNode out =
        NODES
            .objectNode()
            .put("run_id", resumed.runId())
            .put("workflow_id", resumed.runId())
            .put("status", resumed.status())
            .put("resumed", true);
    resumed.forceSteps().forEach(out.putArray("force_steps")::add);
    resumed.preloadedSteps().forEach(out.putArray("preloaded_steps")::add);
    out.put("spec_hash", resumed.specHash());
    return new ToolResult(
        List.of(
            new Content.Text(
                "Workflow run "
                    + resumed.runId()
                    + " resumed; "
                    + resumed.preloadedSteps().size()
                    + " completed step(s) are not run again")),
        out,
        false);
  }

  private static ToolResult noSuchRun(String id) {
    return ToolResult.failure(
        ToolFailureCode.RUN_NOT_FOUND,
        "no workflow run with id '" + id + "'",
        "run ids come from workflows_run");
  }

  private void define(String name, String description, String schema, boolean readOnly) {
    ObjectNode annotations = NODES.objectNode().put("readOnlyHint", readOnly);
    try {
      definitions.add(new CoreTool(name, description, JSON.readTree(schema), annotations));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The session behind an id, as a run's client; nowhere when it has gone. */
  private RunClient sessionClient(String sessionId) {
    McpSession session = sessionId == null ? null : sessions.get(sessionId);
    if (session == null) {
      return RunClient.NONE;
    }
    return new RunClient() {
      @Override
      public void notify(String method, JsonNode params) {
        session.notify(method, params);
      }

      @Override
      public boolean supports(String capability) {
        return session.clientSupports(capability);
      }

      @Override
      public JsonNode request(String method, JsonNode params)
          throws ClientRequestException, InterruptedException {
        return ClientReplies.await(session.sendRequest(method, params), method);
      }
    };
  }
}
