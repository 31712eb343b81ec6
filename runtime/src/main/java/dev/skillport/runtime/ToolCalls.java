package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.api.tool.ToolWork;
import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobResult;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.StoreUnavailableException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * The calls of skills' tools once a name has been resolved to one: refused by the guard, queued as
 * a job, or run now through the {@link ToolRunner}; every call and every job recorded in the
 * statistics and the guard's audit trail. What a call comes to is a {@link CallOutcome}, never wire
 * JSON: a job keeps the {@link JobResult} that the function given at construction makes of its
 * outcome.
 */
public final class ToolCalls {
  private final ToolRunner runner;
  private final CallGuard guard;
  private final JobScheduler jobs;
  private final CallStats stats;
  private final Function<CallOutcome.Completed, JobResult> jobResults;
  private final String tasksExtension;

  /**
   * @param runner runs the tools
   * @param guard refuses denied skills and writes the audit trail
   * @param jobs where async calls become jobs
   * @param stats the in-memory statistics every call is recorded in
   * @param jobResults what a finished job keeps of its call's outcome
   * @param tasksExtension the client extension a call to a task-only tool needs when stateless
   */
  public ToolCalls(
      ToolRunner runner,
      CallGuard guard,
      JobScheduler jobs,
      CallStats stats,
      Function<CallOutcome.Completed, JobResult> jobResults,
      String tasksExtension) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.guard = Objects.requireNonNull(guard, "guard");
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    this.stats = Objects.requireNonNull(stats, "stats");
    this.jobResults = Objects.requireNonNull(jobResults, "jobResults");
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
                jobContext ->
                    new CallOutcome.Completed(
                        runner.run(bound, skill, tool, args, jobContext), tool.nextTools()),
                args));
      } catch (StoreUnavailableException e) {
        return new CallOutcome.Refused(
            ToolFailureCode.STORE_UNAVAILABLE, storeUnavailable(e), tool.nextTools());
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
        jobContext -> new CallOutcome.Completed(runRest(rest, jobContext), null),
        null);
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
      Function<ToolContext, CallOutcome.Completed> work,
      JsonNode auditedArgs) {
    return jobs.submit(
        toolName,
        meta.sessionId(),
        meta.parentJobId(),
        meta.principal(),
        meta.tasks() ? meta.client() : null,
        jobContext -> {
          long start = System.nanoTime();
          CallOutcome.Completed result = work.apply(jobContext);
          audit(
              meta,
              toolName + " (job)",
              auditedArgs,
              Duration.ofNanos(System.nanoTime() - start),
              result.auditWord());
          return jobResults.apply(result);
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
