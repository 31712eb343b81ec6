package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.api.tool.ToolWork;
import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.jobs.IdempotencyKey;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobResult;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.StoreUnavailableException;
import dev.skillport.runtime.jobs.StoredCall;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The calls of skills' tools once a name has been resolved to one: refused by the guard, queued as
 * a job, or run now through the {@link ToolRunner}; every call and every job recorded in the
 * statistics and the guard's audit trail. What a call comes to is a {@link CallOutcome}, never wire
 * JSON: a job keeps its call's result as the typed {@link JobResult}.
 */
public final class ToolCalls {
  private final ToolRunner runner;
  private final CallGuard guard;
  private final JobScheduler jobs;
  private final CallStats stats;
  private final String tasksExtension;
  private final SkillDigests digests = new SkillDigests();

  /**
   * @param runner runs the tools
   * @param guard refuses denied skills and writes the audit trail
   * @param jobs where async calls become jobs
   * @param stats the in-memory statistics every call is recorded in
   * @param tasksExtension the client extension a call to a task-only tool needs when stateless
   */
  public ToolCalls(
      ToolRunner runner,
      CallGuard guard,
      JobScheduler jobs,
      CallStats stats,
      String tasksExtension) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.guard = Objects.requireNonNull(guard, "guard");
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    this.stats = Objects.requireNonNull(stats, "stats");
    this.tasksExtension = Objects.requireNonNull(tasksExtension, "tasksExtension");
  }

  /** The in-memory statistics of every call. */
  public CallStats stats() {
    return stats;
  }

  /**
   * Calls a skill's active tool with an arguments object: refused when the guard denies the skill
   * or tool, the arguments break the input schema, or a declared path argument points outside its
   * places; queued as a job when {@code meta} asks for it or the tool declares {@code execution:
   * async} or {@code task}, else run now. The caller audits the call ({@link #audit}); a job audits
   * itself when it ends.
   *
   * @param bound the handlers of the catalog generation {@code skill} belongs to
   * @throws CapabilityRequiredException when the tool runs only as a task and a stateless client
   *     did not declare the tasks extension
   */
  public CallOutcome call(
      ToolBindings bound, Skill skill, ToolSpec tool, JsonNode args, ToolContext ctx, CallMeta meta)
      throws CapabilityRequiredException {
    CallOutcome.Refused refused = guard.refusal(skill, tool).orElse(null);
    if (refused != null) {
      return refused;
    }
    Execution execution = tool.execution();
    if (execution == Execution.TASK && meta.stateless() && !meta.tasks()) {
      throw CapabilityRequiredException.taskOnly(tool.name(), tasksExtension);
    }
    // Bad arguments are answered at once, for a job too, rather than as a failed job.
    ToolResult invalid = runner.invalidArguments(skill, tool, args);
    if (invalid != null) {
      return new CallOutcome.Refused(ToolFailureCode.INVALID_ARGUMENTS, invalid, tool.nextTools());
    }
    // Path arguments too, so a job is never queued with a path the tool may not use.
    refused = guard.pathRefusal(skill, tool, args, ctx, meta).orElse(null);
    if (refused != null) {
      return refused;
    }
    if (meta.async() || execution == Execution.ASYNC || execution == Execution.TASK) {
      try {
        return new CallOutcome.Queued(
            submit(
                tool.name(),
                meta,
                jobs.queuesInStore() ? stored(skill, tool, args, meta) : null,
                key(skill, tool, args, meta),
                jobContext ->
                    new CallOutcome.Completed(
                        runner.run(bound, skill, tool, args, jobContext), tool.nextTools()),
                args));
      } catch (StoreUnavailableException e) {
        return new CallOutcome.Refused(
            ToolFailureCode.STORE_UNAVAILABLE, storeUnavailable(e), tool.nextTools());
      } catch (IdempotencyKey.ReusedException e) {
        return new CallOutcome.Refused(
            ToolFailureCode.IDEMPOTENCY_KEY_REUSED,
            ToolResult.failure(
                ToolFailureCode.IDEMPOTENCY_KEY_REUSED,
                e.getMessage(),
                "send a new key for a new call; the same key only with the same tool and"
                    + " arguments, to get job "
                    + e.jobId()
                    + " back"),
            tool.nextTools());
      }
    }
    return new CallOutcome.Completed(runner.run(bound, skill, tool, args, ctx), tool.nextTools());
  }

  /**
   * Starts the rest of a call as a job ({@link ToolContext#continueAsJob}); audited like a queued
   * call.
   *
   * @throws StoreUnavailableException when the job cannot be recorded ({@link #storeUnavailable})
   */
  public JobRecord continueAsJob(String toolName, ToolWork rest, CallMeta meta) {
    return submit(
        toolName,
        meta,
        null,
        null,
        jobContext -> new CallOutcome.Completed(runRest(rest, jobContext), null),
        null);
  }

  /** The call as a shared store queues it, for any instance that serves the same skill. */
  private StoredCall stored(Skill skill, ToolSpec tool, JsonNode args, CallMeta meta) {
    return new StoredCall(
        skill.name(),
        tool.name(),
        args,
        digests.of(skill),
        runner.hostFor(skill, tool),
        Boolean.TRUE.equals(tool.annotations().idempotentHint()),
        meta.traceparent(),
        StoredCall.capabilitiesOf(meta.tasks() ? meta.client() : null));
  }

  /** The caller's idempotency key for the job of this call, or null when it sent none. */
  private IdempotencyKey key(Skill skill, ToolSpec tool, JsonNode args, CallMeta meta) {
    return meta.idempotencyKey() == null
        ? null
        : new IdempotencyKey(
            meta.principal(),
            meta.idempotencyKey(),
            CallDigest.of(skill.name() + "/" + tool.name(), args),
            jobs.keyWindow());
  }

  /** What an instance offers to run: its skills by {@link StoredCall#skillKey()}, its hosts. */
  public dev.skillport.runtime.jobs.Claimant claimant(List<Skill> served) {
    java.util.Set<String> skills = new java.util.HashSet<>();
    java.util.Set<String> hosts = new java.util.HashSet<>();
    for (Skill skill : served) {
      skills.add(StoredCall.key(skill.name(), digests.of(skill)));
      String dcc = skill.manifest().extensions().dcc();
      if (dcc != null && runner.hasHost(skill)) {
        hosts.add(dcc);
      }
    }
    return new dev.skillport.runtime.jobs.Claimant(skills, hosts);
  }

  /**
   * Runs a queued job's stored call, claimed from a shared store, as {@code owner}: the guard, the
   * argument and path checks of a call made here, then the tool; audited like a queued call.
   */
  public JobResult runStored(
      ToolBindings bound,
      Skill skill,
      ToolSpec tool,
      StoredCall call,
      String owner,
      ToolContext jobContext) {
    CallMeta meta =
        new CallMeta(null, true, null, update -> {}).withCaller(owner, call.traceparent());
    long start = System.nanoTime();
    CallOutcome outcome = guard.refusal(skill, tool).orElse(null);
    if (outcome == null) {
      ToolResult invalid = runner.invalidArguments(skill, tool, call.arguments());
      outcome =
          invalid != null
              ? new CallOutcome.Refused(
                  ToolFailureCode.INVALID_ARGUMENTS, invalid, tool.nextTools())
              : guard.pathRefusal(skill, tool, call.arguments(), jobContext, meta).orElse(null);
    }
    if (outcome == null) {
      outcome =
          new CallOutcome.Completed(
              runner.run(bound, skill, tool, call.arguments(), jobContext), tool.nextTools());
    }
    audit(
        meta,
        tool.name() + " (job)",
        call.arguments(),
        Duration.ofNanos(System.nanoTime() - start),
        outcome.auditWord());
    return new JobResult(outcome.ranResult().orElseThrow(), tool.nextTools());
  }

  /**
   * The failure a call gets when its job cannot be recorded: it was not queued, and the client may
   * try again.
   */
  public static ToolResult storeUnavailable(StoreUnavailableException e) {
    return ToolResult.failure(
        ToolFailureCode.STORE_UNAVAILABLE,
        "the call was not queued: the "
            + e.fault().store()
            + " store cannot write ("
            + e.fault().error()
            + ")",
        "try again shortly; the store writes again by itself once the disk has room, and"
            + " /readyz answers 200 then");
  }

  private static ToolResult runRest(ToolWork rest, ToolContext jobContext) {
    try {
      ToolResult produced = rest.run(jobContext);
      return produced == null ? ToolResult.text("") : produced;
    } catch (InterruptedException e) {
      return ToolRunner.interrupted();
    } catch (Exception e) {
      return ToolRunner.failed(ToolFailureCode.HANDLER_FAILED, e);
    }
  }

  /** Queues {@code work} as a job of {@code meta}'s caller, audited when it ends. */
  private JobRecord submit(
      String toolName,
      CallMeta meta,
      StoredCall call,
      IdempotencyKey key,
      Function<ToolContext, CallOutcome.Completed> work,
      JsonNode auditedArgs) {
    return jobs.submit(
        toolName,
        meta.sessionId(),
        meta.parentJobId(),
        meta.principal(),
        meta.tasks() ? meta.client() : null,
        call,
        key,
        jobContext -> {
          long start = System.nanoTime();
          CallOutcome.Completed result = work.apply(jobContext);
          audit(
              meta,
              toolName + " (job)",
              auditedArgs,
              Duration.ofNanos(System.nanoTime() - start),
              result.auditWord());
          return new JobResult(result.result(), result.next());
        },
        meta.jobUpdates());
  }

  /** One finished call: to the in-memory statistics and to the guard's audit trail. */
  public void audit(CallMeta meta, String tool, JsonNode args, Duration took, String outcome) {
    stats.record(
        meta.sessionId(), meta.principal(), tool, CallGuard.argumentNames(args), took, outcome);
    guard.record(meta, tool, args, took, outcome);
  }
}
