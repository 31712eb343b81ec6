package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.RetryPolicy;
import dev.skillport.model.skill.StepPolicy;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.skill.WorkflowStep;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs workflows in the background, one run per thread of a bounded pool; parallel steps and
 * elicitations use a second pool, step timeouts a timer. Every change of a run is stored and sent
 * to the session that started it as {@value #UPDATED}. Runs a previous process left unfinished read
 * {@code interrupted}.
 */
public final class WorkflowEngine implements AutoCloseable {
  public static final String UPDATED = "notifications/$/dcc.workflowUpdated";
  private static final Logger LOG = LoggerFactory.getLogger(WorkflowEngine.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int QUEUED_RUNS = 256;

  /** Statuses of an earlier run that a new run under the same key reuses. */
  private static final java.util.Set<String> REUSABLE =
      java.util.Set.of("pending", "running", "awaiting_approval", "completed");

  private final WorkflowStore store;
  private final Sleeper sleeper;
  private final Clock clock;
  private final DoubleSupplier random;
  private final ThreadPoolExecutor runs;
  private final ExecutorService steps;
  private final ScheduledExecutorService timers;
  private final ExecutorService notifier;
  private final Map<String, Run> live = new ConcurrentHashMap<>();
  // Serialises the check-then-start of runs that carry a run key.
  private final Object runKeys = new Object();
  // Serialises the check-then-start of resumes.
  private final Object resuming = new Object();
  private volatile Consumer<ObjectNode> observer = update -> {};
  private volatile boolean closed;

  public WorkflowEngine(
      WorkflowStore store, int maxRuns, Sleeper sleeper, Clock clock, DoubleSupplier random) {
    this.store = store;
    this.sleeper = sleeper;
    this.clock = clock;
    this.random = random;
    this.runs =
        new ThreadPoolExecutor(
            maxRuns,
            maxRuns,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(QUEUED_RUNS),
            daemons("workflow-run-"));
    runs.allowCoreThreadTimeOut(true);
    this.steps = Executors.newCachedThreadPool(daemons("workflow-step-"));
    this.timers = Executors.newSingleThreadScheduledExecutor(daemons("workflow-timer-"));
    this.notifier = Executors.newSingleThreadExecutor(daemons("workflow-notifier-"));
    recover();
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  private void recover() {
    int marked = 0;
    for (JsonNode doc : store.runs()) {
      ObjectNode interrupted = RunRecord.interrupted(doc, clock.instant());
      if (interrupted != null) {
        try {
          store.saveRun(interrupted.path("run_id").asText(), interrupted);
        } catch (IllegalStateException e) { // kept by the store and written once it can
          LOG.warn(
              "workflow run {} not marked interrupted yet: {}", doc.path("run_id"), e.getMessage());
        }
        marked++;
      }
    }
    if (marked > 0) {
      LOG.info("{} unfinished workflow runs from a previous run are marked interrupted", marked);
    }
  }

  /** A run just queued ({@code pending}), or an earlier one reused through its run key. */
  public record Started(String runId, String status, boolean reused) {}

  /**
   * Queues a run and answers at once.
   *
   * @param skill the skill declaring the workflow (unqualified tool names are its tools), or null
   * @param runKey a run-level idempotency key, templated with the inputs, or null: while a run of
   *     this workflow under the same key is in flight or completed, it is returned instead of
   *     starting another; after it failed, was cancelled or interrupted, a new run starts
   */
  public Started start(
      WorkflowSpec spec,
      String skill,
      JsonNode inputs,
      String sessionId,
      Principal owner,
      ToolCaller caller,
      RunClient client,
      String runKey)
      throws TemplateException {
    if (closed) {
      throw new IllegalStateException("the workflow engine is closed");
    }
    if (runKey == null) {
      return new Started(
          queue(spec, skill, inputs, sessionId, owner, caller, client), "pending", false);
    }
    // Each caller's keys are its own: another caller's key names none of its runs.
    String key =
        "run/"
            + (owner.name() == null ? "" : owner.name() + "/")
            + spec.name()
            + "/"
            + RunScope.of(inputs).renderText(runKey);
    synchronized (runKeys) {
      Optional<String> prior = store.completedStep(key).map(doc -> doc.path("run_id").asText());
      Optional<String> priorStatus =
          prior.flatMap(this::status).map(doc -> doc.path("status").asText());
      if (priorStatus.isPresent() && REUSABLE.contains(priorStatus.get())) {
        return new Started(prior.get(), priorStatus.get(), true);
      }
      String id = queue(spec, skill, inputs, sessionId, owner, caller, client);
      store.recordStep(key, NODES.objectNode().put("run_id", id));
      return new Started(id, "pending", false);
    }
  }

  private String queue(
      WorkflowSpec spec,
      String skill,
      JsonNode inputs,
      String sessionId,
      Principal owner,
      ToolCaller caller,
      RunClient client) {
    RunRecord record =
        new RunRecord(
            UUID.randomUUID().toString(),
            spec,
            skill,
            sessionId,
            owner.name(),
            inputs,
            clock.instant());
    Run run = new Run(record, spec, skill, RunScope.of(inputs), caller, client, Map.of());
    live.put(record.id(), run);
    run.changed();
    try {
      runs.execute(run::execute);
    } catch (RejectedExecutionException e) {
      run.finish(
          RunRecord.Status.FAILED, "too many workflow runs are queued; try again later", null);
    }
    return record.id();
  }

  /**
   * A stored run queued again ({@code pending}) under its id.
   *
   * @param preloadedSteps the steps it does not run again, their recorded outputs reused
   */
  public record Resumed(
      String runId,
      String status,
      List<String> forceSteps,
      List<String> preloadedSteps,
      String specHash) {}

  /**
   * Resumes an interrupted or failed run from its stored document: it runs its stored spec again
   * under the same id and owner, skipping every step that completed (its recorded output is what
   * later steps read) unless named in {@code forceSteps}; a step with an idempotency key that
   * finished reuses its output as in any run. The caller checks ownership first ({@link #ownedBy}).
   *
   * @param sessionId the resuming session, which receives the run's updates from now on
   * @param expectedSpecHash the {@code spec_hash} the caller expects, or null
   * @param strict whether a different stored hash refuses the resume rather than running the stored
   *     spec
   */
  public Resumed resume(
      String runId,
      String sessionId,
      ToolCaller caller,
      RunClient client,
      List<String> forceSteps,
      String expectedSpecHash,
      boolean strict)
      throws ResumeRefused {
    if (closed) {
      throw new IllegalStateException("the workflow engine is closed");
    }
    synchronized (resuming) {
      if (live.containsKey(runId)) {
        throw new ResumeRefused(
            ResumeRefused.Reason.NOT_RESUMABLE, "run '" + runId + "' is in progress");
      }
      JsonNode stored =
          store
              .run(runId)
              .orElseThrow(
                  () ->
                      new ResumeRefused(
                          ResumeRefused.Reason.NOT_FOUND,
                          "no workflow run with id '" + runId + "'"));
      ResumePlan plan = ResumePlan.of(stored, forceSteps, expectedSpecHash, strict);
      if (expectedSpecHash != null && !expectedSpecHash.equalsIgnoreCase(plan.specHash())) {
        LOG.warn(
            "run {}: stored spec hash {} is not the expected {}; resuming the stored spec",
            runId,
            plan.specHash(),
            expectedSpecHash);
      }
      RunRecord record = new RunRecord(stored, plan.spec(), plan.kept(), sessionId);
      RunScope scope = RunScope.of(stored.path("inputs"));
      plan.outputs().forEach(scope::recordOutput);
      Run run = new Run(record, plan.spec(), plan.skill(), scope, caller, client, plan.preloaded());
      live.put(runId, run);
      run.changed();
      try {
        runs.execute(run::execute);
      } catch (RejectedExecutionException e) {
        run.finish(
            RunRecord.Status.FAILED, "too many workflow runs are queued; try again later", null);
      }
      return new Resumed(
          runId,
          "pending",
          List.copyOf(forceSteps),
          List.copyOf(plan.preloaded().keySet()),
          plan.specHash());
    }
  }

  /** Also sends every run's changes to {@code observer} (in order, on the notifier thread). */
  public void observe(Consumer<ObjectNode> runObserver) {
    this.observer = runObserver;
  }

  /**
   * The most recently created runs {@code viewer} may see ({@link Principal#sees(String)}) in their
   * {@code workflows_get_status} shape, newest first, at most {@code limit}.
   */
  public List<JsonNode> recent(int limit, Principal viewer) {
    Map<String, JsonNode> byId = new LinkedHashMap<>();
    for (JsonNode doc : store.runs()) {
      if (!viewer.sees(doc.path(RunRecord.OWNER).textValue())) {
        continue;
      }
      ObjectNode o = RunRecord.wire(doc);
      byId.put(o.path("run_id").asText(), o);
    }
    live.forEach(
        (id, run) -> {
          if (viewer.sees(run.record.owner())) {
            byId.put(id, run.record.toWire());
          } else {
            byId.remove(id);
          }
        });
    return byId.values().stream()
        .sorted(Comparator.comparing((JsonNode d) -> d.path("created_at").asText()).reversed())
        .limit(Math.max(0, limit))
        .toList();
  }

  /** The {@code workflows_get_status} shape of a live or stored run. */
  public Optional<JsonNode> status(String runId) {
    Run run = live.get(runId);
    if (run != null) {
      return Optional.of(run.record.toWire());
    }
    return store.run(runId).map(RunRecord::wire);
  }

  /**
   * Whether run {@code runId} exists and {@code caller} owns it ({@link Principal#owns(String)}):
   * every request naming a run asks this first, and another caller's run answers as an unknown one.
   */
  public boolean ownedBy(String runId, Principal caller) {
    Run run = live.get(runId);
    if (run != null) {
      return caller.owns(run.record.owner());
    }
    return store
        .run(runId)
        .map(doc -> caller.owns(doc.path(RunRecord.OWNER).textValue()))
        .orElse(false);
  }

  /** Cancels a live run: the step in flight is cancelled, later steps do not run. */
  public boolean cancel(String runId) {
    Run run = live.get(runId);
    return run != null && run.finish(RunRecord.Status.CANCELLED, "cancelled", null);
  }

  /** The outcome of an explicit approval call. */
  public record ApprovalOutcome(boolean accepted, String stepId, String problem) {}

  /**
   * Answers a pending approval of a live run.
   *
   * @param stepId the approve step, or null when exactly one approval is pending
   */
  public ApprovalOutcome approve(String runId, String stepId, boolean approved, String comment) {
    Run run = live.get(runId);
    if (run == null) {
      return new ApprovalOutcome(false, stepId, "run '" + runId + "' is not in progress");
    }
    String target = stepId;
    if (target == null) {
      List<String> pending = List.copyOf(run.approvals.keySet());
      if (pending.size() != 1) {
        return new ApprovalOutcome(
            false,
            null,
            pending.isEmpty()
                ? "run '" + runId + "' is not waiting for an approval"
                : "several approvals are pending ("
                    + String.join(", ", pending)
                    + "); give step_id");
      }
      target = pending.get(0);
    }
    CompletableFuture<Decision> waiting = run.approvals.get(target);
    if (waiting == null) {
      return new ApprovalOutcome(
          false,
          target,
          "step '" + target + "' of run '" + runId + "' is not waiting for approval");
    }
    boolean settled = waiting.complete(new Decision(approved, comment, "workflows_approve"));
    return new ApprovalOutcome(
        settled, target, settled ? null : "step '" + target + "' was answered already");
  }

  /** Stops: runs still in flight are marked interrupted and their steps cancelled. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Run run : List.copyOf(live.values())) {
      run.finish(RunRecord.Status.INTERRUPTED, "the server stopped before the run finished", null);
    }
    runs.shutdown();
    steps.shutdown();
    notifier.shutdown();
    timers.shutdownNow();
    try {
      runs.awaitTermination(5, TimeUnit.SECONDS);
      notifier.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }

  /** An approval's answer. */
  private record Decision(boolean approved, String comment, String via) {}

  /** One run in flight. */
  private final class Run {
    private final RunRecord record;
    private final WorkflowSpec spec;
    private final String skill;
    private final RunScope scope;
    private final ToolCaller caller;
    private final RunClient client;
    private final CancelToken token = CancelToken.root();
    private final Map<String, CompletableFuture<Decision>> approvals = new ConcurrentHashMap<>();
    // Steps a resume does not run again: their recorded outputs.
    private final Map<String, JsonNode> preloaded;

    Run(
        RunRecord record,
        WorkflowSpec spec,
        String skill,
        RunScope scope,
        ToolCaller caller,
        RunClient client,
        Map<String, JsonNode> preloaded) {
      this.preloaded = preloaded;
      this.record = record;
      this.spec = spec;
      this.skill = skill;
      this.scope = scope;
      this.caller = caller;
      this.client = client;
    }

    void execute() {
      if (!record.start(clock.instant())) {
        return;
      }
      changed();
      CancelToken.Registration registration = token.enter();
      try {
        JsonNode last = runSteps(spec.steps(), scope, token, null);
        settle(RunRecord.Status.COMPLETED, null, last);
      } catch (RunCancelled e) {
        settle(RunRecord.Status.CANCELLED, e.getMessage(), null);
      } catch (StepFailure e) {
        settle(RunRecord.Status.FAILED, e.getMessage(), null);
      } catch (RuntimeException e) {
        LOG.debug("workflow run {} failed", record.id(), e);
        settle(RunRecord.Status.FAILED, e.getClass().getSimpleName() + ": " + e.getMessage(), null);
      } finally {
        registration.close();
      }
    }

    /** Ends the run from outside (cancel, shutdown): its work in flight is cancelled. */
    boolean finish(RunRecord.Status end, String why, JsonNode output) {
      boolean done = settle(end, why, output);
      if (done) {
        token.cancel(why == null ? end.wire() : why);
      }
      return done;
    }

    /** Records the end of the run once; the run's own thread ends it this way. */
    private boolean settle(RunRecord.Status end, String why, JsonNode output) {
      boolean done = record.finish(end, clock.instant(), why, output);
      if (done) {
        live.remove(record.id());
        changed();
      }
      return done;
    }

    /**
     * Stores the record and tells the starting session. The message leaves from the notifier
     * thread, in order: a run thread may be interrupted by a cancel at any time, and an interrupt
     * inside a channel write would close the session's stream.
     */
    void changed() {
      try {
        store.saveRun(record.id(), record.toStored());
      } catch (RuntimeException e) {
        LOG.warn("workflow run {} could not be saved: {}", record.id(), e.toString());
      }
      ObjectNode update = record.toUpdate();
      try {
        notifier.execute(() -> deliver(update));
      } catch (RejectedExecutionException e) {
        LOG.debug("workflow update for {} dropped: the engine is closed", record.id());
      }
    }

    private void deliver(ObjectNode update) {
      try {
        client.notify(UPDATED, update);
      } catch (RuntimeException e) {
        LOG.debug("workflow update for {} was not delivered", record.id(), e);
      }
      try {
        observer.accept(update);
      } catch (RuntimeException e) {
        LOG.debug("workflow observer failed on {}", record.id(), e);
      }
    }

    /** Runs steps in order; returns the last output and fills {@code outputs} when given. */
    private JsonNode runSteps(
        List<WorkflowStep> list, RunScope in, CancelToken parent, Map<String, JsonNode> outputs)
        throws StepFailure, RunCancelled {
      JsonNode last = NODES.nullNode();
      for (WorkflowStep step : list) {
        if (parent.isCancelled()) {
          throw new RunCancelled(parent.reason());
        }
        last = runStep(step, in, parent);
        if (outputs != null) {
          outputs.put(step.id(), last);
        }
      }
      return last;
    }

    /** One step under its policy: idempotency key, then attempts with timeout and retry. */
    private JsonNode runStep(WorkflowStep step, RunScope in, CancelToken parent)
        throws StepFailure, RunCancelled {
      JsonNode recorded = preloaded.get(step.id());
      if (recorded != null) {
        return recorded;
      }
      record.stepStarted(step.id(), clock.instant());
      changed();
      StepPolicy policy = step.policy();
      String key = null;
      if (policy.idempotencyKey() != null) {
        try {
          key = spec.name() + "/" + step.id() + "/" + in.renderText(policy.idempotencyKey());
        } catch (TemplateException e) {
          throw failed(step, new StepFailure("idempotency_key: " + e.getMessage(), false));
        }
        Optional<JsonNode> done = store.completedStep(key);
        if (done.isPresent()) {
          in.recordOutput(step.id(), done.get());
          record.stepCompleted(step.id(), done.get(), true, clock.instant());
          changed();
          return done.get();
        }
      }
      RetryPolicy retry = policy.retry();
      for (int attempt = 1; ; attempt++) {
        record.attemptStarted(step.id(), attempt, clock.instant());
        changed();
        try {
          JsonNode out = attemptOnce(step, in, parent, policy.timeoutSecs());
          if (key != null) {
            store.recordStep(key, out);
          }
          in.recordOutput(step.id(), out);
          record.stepCompleted(step.id(), out, false, clock.instant());
          changed();
          return out;
        } catch (StepFailure f) {
          if (!f.retryable() || attempt >= retry.maxAttempts()) {
            record.attemptFailed(step.id(), f.getMessage(), -1);
            throw failed(step, f);
          }
          long delay = RetryDelays.delayMs(retry, attempt, random.getAsDouble());
          record.attemptFailed(step.id(), f.getMessage(), delay);
          changed();
          try {
            sleeper.sleep(Duration.ofMillis(delay));
          } catch (InterruptedException e) {
            if (parent.isCancelled()) {
              throw new RunCancelled(parent.reason());
            }
            Thread.currentThread().interrupt();
            throw new RunCancelled("interrupted");
          }
          if (parent.isCancelled()) {
            throw new RunCancelled(parent.reason());
          }
        }
      }
    }

    private StepFailure failed(WorkflowStep step, StepFailure f) {
      record.stepFailed(step.id(), f.getMessage(), clock.instant());
      changed();
      return new StepFailure("step '" + step.id() + "' failed: " + f.getMessage(), f.retryable());
    }

    /** One attempt, cut off by the step's timeout. */
    private JsonNode attemptOnce(
        WorkflowStep step, RunScope in, CancelToken parent, Integer timeoutSecs)
        throws StepFailure, RunCancelled {
      CancelToken attempt = parent.child();
      String timedOut = "timed out after " + timeoutSecs + " s";
      ScheduledFuture<?> timer =
          timeoutSecs == null
              ? null
              : timers.schedule(() -> attempt.cancel(timedOut), timeoutSecs, TimeUnit.SECONDS);
      JsonNode out = null;
      StepFailure failure = null;
      RunCancelled cancelled = null;
      CancelToken.Registration registration = attempt.enter();
      try {
        out = body(step, in, attempt);
      } catch (StepFailure e) {
        failure = e;
      } catch (RunCancelled e) {
        cancelled = e;
      } catch (InterruptedException e) {
        cancelled = new RunCancelled("interrupted");
      } finally {
        registration.close();
        if (timer != null) {
          timer.cancel(false);
        }
        attempt.detach();
      }
      if (parent.isCancelled()) {
        throw new RunCancelled(parent.reason());
      }
      if (attempt.isCancelled()) {
        throw new StepFailure(attempt.reason(), true);
      }
      if (cancelled != null) {
        throw cancelled;
      }
      if (failure != null) {
        throw failure;
      }
      return out;
    }

    private JsonNode body(WorkflowStep step, RunScope in, CancelToken attempt)
        throws StepFailure, RunCancelled, InterruptedException {
      StepBody body =
          step.accept(
              new WorkflowStep.Visitor<StepBody>() {
                @Override
                public StepBody tool(WorkflowStep.Tool t) {
                  return () -> Run.this.tool(t, in, attempt);
                }

                @Override
                public StepBody foreach(WorkflowStep.Foreach f) {
                  return () -> Run.this.foreach(f, in, attempt);
                }

                @Override
                public StepBody parallel(WorkflowStep.Parallel p) {
                  return () -> Run.this.parallel(p, in, attempt);
                }

                @Override
                public StepBody branch(WorkflowStep.Branch b) {
                  return () -> Run.this.branch(b, in, attempt);
                }

                @Override
                public StepBody approve(WorkflowStep.Approve a) {
                  return () -> Run.this.approve(a, in, attempt);
                }
              });
      return body.run();
    }

    private JsonNode tool(WorkflowStep.Tool step, RunScope in, CancelToken attempt)
        throws StepFailure {
      String name = rendered(() -> in.renderText(step.tool()));
      JsonNode args =
          step.args() == null ? NODES.objectNode() : rendered(() -> in.render(step.args()));
      if (skill != null && !name.contains("__")) {
        name = skill + "__" + name;
      }
      ToolResult result =
          caller.call(name, args, new StepContext(attempt, client, Principal.of(record.owner())));
      if (attempt.isCancelled()) {
        return NODES.nullNode();
      }
      if (result == null) {
        throw new StepFailure("tool '" + name + "' returned no result", true);
      }
      if (result.isError()) {
        throw new StepFailure("tool '" + name + "': " + errorText(result), true);
      }
      return output(result);
    }

    private JsonNode foreach(WorkflowStep.Foreach step, RunScope in, CancelToken attempt)
        throws StepFailure, RunCancelled {
      List<JsonNode> items = rendered(() -> in.items(step.items()));
      ArrayNode outputs = NODES.arrayNode();
      for (int i = 0; i < items.size(); i++) {
        Map<String, JsonNode> perItem = new LinkedHashMap<>();
        try {
          JsonNode last =
              runSteps(step.steps(), in.withItem(step.as(), items.get(i)), attempt, perItem);
          if (step.steps().size() == 1) {
            outputs.add(last);
          } else {
            ObjectNode o = outputs.addObject();
            perItem.forEach(o::set);
          }
        } catch (StepFailure f) {
          throw new StepFailure("item " + i + ": " + f.getMessage(), f.retryable());
        }
      }
      return outputs;
    }

    private JsonNode parallel(WorkflowStep.Parallel step, RunScope in, CancelToken attempt)
        throws StepFailure, RunCancelled, InterruptedException {
      Map<String, Future<JsonNode>> running = new LinkedHashMap<>();
      for (WorkflowStep child : step.steps()) {
        running.put(
            child.id(),
            steps.submit(
                () -> {
                  CancelToken.Registration registration = attempt.enter();
                  try {
                    return runStep(child, in, attempt);
                  } finally {
                    registration.close();
                  }
                }));
      }
      ObjectNode outputs = NODES.objectNode();
      List<String> failures = new ArrayList<>();
      boolean retryable = true;
      RunCancelled cancelled = null;
      for (Map.Entry<String, Future<JsonNode>> e : running.entrySet()) {
        try {
          outputs.set(e.getKey(), e.getValue().get());
        } catch (ExecutionException ex) {
          Throwable cause = ex.getCause();
          if (cause instanceof StepFailure f) {
            failures.add(f.getMessage());
            retryable &= f.retryable();
          } else if (cause instanceof RunCancelled c) {
            cancelled = c;
          } else {
            failures.add(e.getKey() + ": " + cause);
          }
        }
      }
      if (cancelled != null) {
        throw cancelled;
      }
      if (!failures.isEmpty()) {
        throw new StepFailure(String.join("; ", failures), retryable);
      }
      return outputs;
    }

    private JsonNode branch(WorkflowStep.Branch step, RunScope in, CancelToken attempt)
        throws StepFailure, RunCancelled {
      boolean taken = rendered(() -> BranchCondition.holds(in.renderValue(step.on())));
      List<WorkflowStep> chosen = taken ? step.then() : step.otherwise();
      skip(taken ? step.otherwise() : step.then());
      Map<String, JsonNode> outputs = new LinkedHashMap<>();
      runSteps(chosen, in, attempt, outputs);
      ObjectNode out = NODES.objectNode();
      out.put("branch", taken ? "then" : "else");
      ObjectNode o = out.putObject("outputs");
      outputs.forEach(o::set);
      return out;
    }

    private void skip(List<WorkflowStep> list) {
      for (WorkflowStep s : list) {
        record.stepSkipped(s.id());
        skip(RunRecord.nested(s));
      }
      changed();
    }

    private JsonNode approve(WorkflowStep.Approve step, RunScope in, CancelToken attempt)
        throws StepFailure, InterruptedException {
      String prompt = rendered(() -> in.renderText(step.prompt()));
      if (prompt.isBlank()) {
        prompt = "Approve step '" + step.id() + "' of workflow '" + spec.name() + "'?";
      }
      CompletableFuture<Decision> pending = new CompletableFuture<>();
      approvals.put(step.id(), pending);
      record.approvalAwaited(step.id());
      changed();
      Future<?> asking = null;
      try {
        if (client.supports("elicitation")) {
          asking = steps.submit(elicitation(prompt, pending));
        }
        Decision d = pending.get();
        if (!d.approved()) {
          throw new StepFailure(
              "approval was declined"
                  + (d.comment() == null || d.comment().isBlank() ? "" : ": " + d.comment()),
              false);
        }
        ObjectNode out = NODES.objectNode().put("approved", true).put("via", d.via());
        if (d.comment() != null) {
          out.put("comment", d.comment());
        }
        return out;
      } catch (ExecutionException e) {
        throw new StepFailure("approval failed: " + e.getCause(), false);
      } finally {
        if (asking != null) {
          asking.cancel(true);
        }
        approvals.remove(step.id());
        record.approvalSettled();
        changed();
      }
    }

    /** Asks the client; an answer settles the approval, a failure leaves it to an explicit call. */
    private Runnable elicitation(String prompt, CompletableFuture<Decision> pending) {
      ObjectNode params = NODES.objectNode();
      params.put("message", prompt);
      ObjectNode schema = params.putObject("requestedSchema").put("type", "object");
      ObjectNode props = schema.putObject("properties");
      props.putObject("approved").put("type", "boolean").put("title", "Approve");
      props.putObject("comment").put("type", "string").put("title", "Comment");
      schema.putArray("required").add("approved");
      return () -> {
        try {
          JsonNode answer = client.request("elicitation/create", params);
          String action = answer.path("action").asText("");
          JsonNode content = answer.path("content");
          String comment = content.hasNonNull("comment") ? content.get("comment").asText() : null;
          boolean approved =
              action.equals("accept")
                  && content.path("approved").asBoolean(!content.has("approved"));
          pending.complete(
              new Decision(
                  approved,
                  comment != null || approved ? comment : "the client answered " + action,
                  "elicitation"));
        } catch (ClientRequestException e) {
          LOG.info(
              "run {}: elicitation failed ({}); waiting for workflows_approve",
              record.id(),
              e.getMessage());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      };
    }
  }

  /** A step's work, chosen by its kind and run after the choice. */
  @FunctionalInterface
  private interface StepBody {
    JsonNode run() throws StepFailure, RunCancelled, InterruptedException;
  }

  /** Evaluating a template or JSONPath; failing is a step failure that no retry can fix. */
  @FunctionalInterface
  private interface Rendering<T> {
    T get() throws TemplateException;
  }

  private static <T> T rendered(Rendering<T> rendering) throws StepFailure {
    try {
      return rendering.get();
    } catch (TemplateException e) {
      throw new StepFailure(e.getMessage(), false);
    }
  }

  private static String errorText(ToolResult result) {
    JsonNode structured = result.structured();
    if (structured != null && structured.hasNonNull("message")) {
      return structured.path("code").asText("ERROR") + ": " + structured.get("message").asText();
    }
    for (Content c : result.content()) {
      if (c instanceof Content.Text t) {
        return t.text();
      }
    }
    return "the call failed";
  }

  /** A step's output: the structured content, else the text (parsed when it is JSON). */
  private static JsonNode output(ToolResult result) {
    if (result.structured() != null && result.structured().isObject()) {
      return result.structured();
    }
    StringBuilder text = new StringBuilder();
    for (Content c : result.content()) {
      if (c instanceof Content.Text t) {
        text.append(t.text());
      }
    }
    String s = text.toString().strip();
    if (s.startsWith("{") || s.startsWith("[")) {
      try {
        return JSON.readTree(s);
      } catch (IOException e) {
        // Not JSON after all: the text is the output.
      }
    }
    return NODES.textNode(text.toString());
  }

  /** The context a tool step's call gets: cancelled with its attempt, asking the run's client. */
  private static final class StepContext implements ToolContext {
    private final CancelToken attempt;
    private final RunClient client;
    private final Principal owner;

    StepContext(CancelToken attempt, RunClient client, Principal owner) {
      this.attempt = attempt;
      this.client = client;
      this.owner = owner;
    }

    /** A step acts for the caller that started its run. */
    @Override
    public Principal principal() {
      return owner;
    }

    @Override
    public void progress(double progress, Double total, String message) {}

    @Override
    public void log(String level, String message) {
      LOG.debug("workflow step [{}] {}", level, message);
    }

    @Override
    public boolean isCancelled() {
      return attempt.isCancelled();
    }

    @Override
    public boolean clientSupports(String name) {
      return client.supports(name);
    }

    @Override
    public JsonNode request(String method, JsonNode params)
        throws ClientRequestException, InterruptedException {
      return client.request(method, params);
    }
  }
}
