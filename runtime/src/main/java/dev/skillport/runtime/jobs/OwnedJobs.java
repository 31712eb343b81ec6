package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The jobs (and so the tasks) as one caller may reach them: every request that names a job reads,
 * cancels, answers or removes it through here, so another caller's job is, to it, no job at all
 * ({@link Principal#owns(String)}).
 */
public final class OwnedJobs {
  private final JobScheduler jobs;
  private final Principal caller;

  /** The jobs of {@code scheduler} that {@code caller} owns. */
  public OwnedJobs(JobScheduler scheduler, Principal caller) {
    this.jobs = Objects.requireNonNull(scheduler, "scheduler");
    this.caller = Objects.requireNonNull(caller, "caller");
  }

  /** The caller's job {@code id}; empty when it is unknown or another caller's. */
  public Optional<JobRecord> status(String id) {
    return jobs.status(id).filter(job -> caller.owns(job.owner()));
  }

  /** The final record of the caller's job once it finishes; empty as {@link #status} is. */
  public Optional<CompletableFuture<JobRecord>> completion(String id) {
    return status(id).isPresent() ? jobs.completion(id) : Optional.empty();
  }

  /** The log lines of the caller's job ({@link JobScheduler#logs}); empty as {@link #status} is. */
  public Optional<ObjectNode> logs(String id) {
    return status(id).isPresent() ? jobs.logs(id) : Optional.empty();
  }

  /** Cancels the caller's job; false when it is unknown, another caller's, or already finished. */
  public boolean cancel(String id) {
    return status(id).isPresent() && jobs.cancel(id);
  }

  /** Delivers answers to the caller's waiting job; false as {@link #cancel} is. */
  public boolean answer(String id, JsonNode responses) {
    return status(id).isPresent() && jobs.answer(id, responses);
  }

  /** Removes the caller's finished jobs older than {@code age}; returns how many. */
  public int cleanup(Duration age) {
    return jobs.cleanup(age, job -> caller.owns(job.owner()));
  }
}
