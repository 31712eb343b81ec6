package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How the instances sharing one {@link JobStore} reach each other: a cancellation or a client's
 * answers for a job another instance runs are handed to that instance, which receives them through
 * {@link #serve}; every change of a job another instance runs (its status, progress, questions)
 * reaches every instance there too, within a second. A store shared by several processes offers
 * this ({@link JobStore#coordination}); an embedded store, held by one process, does not need it.
 */
public interface JobCoordination {
  /** This instance's id, as the store records it beside the jobs it runs. */
  String instance();

  /**
   * Hands a cancellation to the instance running job {@code id}.
   *
   * @return false when no live instance runs it (it is finished, unknown, or its runner is gone)
   */
  boolean requestCancel(String id);

  /**
   * Hands the client's answers to the instance running job {@code id}.
   *
   * @return false when no live instance runs it
   */
  boolean requestAnswer(String id, JsonNode answers);

  /**
   * The unfinished jobs of the whole fleet, by the instance running them and status ({@code
   * pending}, {@code running}).
   */
  default java.util.Map<String, java.util.Map<JobStatus, Integer>> activeByInstance() {
    return java.util.Map.of();
  }

  /**
   * Delivers the requests addressed to this instance to {@code handler} from now on, each once, as
   * they arrive. Called once.
   */
  void serve(Requests handler);

  /**
   * Stores new {@code job} with its call: a pending job is queued, for any instance that can run it
   * to claim, and the idle instances are woken ({@link #onQueued}); a running one is this
   * instance's at once (it had a free worker), leased to it as if claimed.
   *
   * @throws StoreUnavailableException when the job cannot be recorded: nothing is queued
   */
  default void enqueue(JobRecord job, StoredCall call) {
    enqueue(job, call, null);
  }

  /**
   * Like {@link #enqueue(JobRecord, StoredCall)}, under the caller's idempotency {@code key} (or
   * null): when the key already names a job of that caller within its window nothing is stored and
   * that job is returned ({@link JobStore#saveNew}).
   */
  Optional<IdempotencyKey.Prior> enqueue(JobRecord job, StoredCall call, IdempotencyKey key);

  /**
   * Takes the next queued job that {@code who} can run, in {@link FairOrder} over the whole store:
   * marked running by this instance and leased to it, so no other instance takes it. Empty when
   * there is none.
   */
  Optional<Claimed> claim(Claimant who);

  /**
   * Ends queued job {@code id} as {@code end} makes it, if no instance claimed it yet; returns the
   * ended record, or empty when it is not queued (claimed, finished or unknown).
   */
  Optional<JobRecord> endQueued(String id, UnaryOperator<JobRecord> end);

  /** Calls {@code wake} when a job is queued by any instance (and now and then regardless). */
  void onQueued(Runnable wake);

  /** A job this instance claimed, and the call to run. */
  record Claimed(JobRecord job, StoredCall call) {}

  /** Receives the requests other instances hand to this one. */
  interface Requests {
    void cancel(String id);

    void answer(String id, JsonNode answers);

    /**
     * Job {@code job.id()}, run by another instance, changed: {@code job} is its record as it is
     * now. Each change arrives at most once; a burst of changes may arrive as its last one.
     */
    default void changed(JobRecord job) {}
  }
}
