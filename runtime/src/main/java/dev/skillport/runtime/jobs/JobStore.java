package dev.skillport.runtime.jobs;

import java.util.List;
import java.util.Optional;

/**
 * Where job records live. The default is an embedded on-disk store ({@link MvStoreJobStore}); a
 * shared database ({@code store-postgres}) serves several instances, with {@link #coordination}.
 * Implementations are thread-safe, and a {@link #save} that returned has survived a crash of the
 * server process. A store that cannot write throws {@link StoreUnavailableException} from {@link
 * #save}, keeps the change in memory as the record's latest state (reads return it) and writes it
 * once it can again, by itself; {@link #fault} says why meanwhile.
 */
public interface JobStore extends AutoCloseable {
  /** Inserts or replaces the record with the same id. */
  void save(JobRecord job);

  Optional<JobRecord> find(String id);

  /** Every readable record; damaged ones are skipped (and reported by the implementation). */
  List<JobRecord> all();

  /**
   * Saves new job {@code job} under the caller's idempotency {@code key}, unless the key already
   * names a job of that caller within its window: then nothing is saved and that job is returned.
   * The key and the job are written together: two processes racing with one key never both save. A
   * key whose job was removed, or whose window is over, names the new job.
   *
   * @throws StoreUnavailableException when the job cannot be written now: nothing is kept
   */
  default Optional<IdempotencyKey.Prior> saveNew(JobRecord job, IdempotencyKey key) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no keys");
  }

  /** Removes a record; false when there was none. */
  boolean delete(String id);

  /**
   * The unfinished jobs whose runner is gone, for a scheduler starting on this store to mark
   * interrupted: on a store one process holds, every unfinished job; on a shared store, those this
   * instance left from a previous run (another instance's expire with its lease).
   */
  default List<JobRecord> orphans() {
    return all().stream().filter(r -> !r.status().terminal()).toList();
  }

  /** How instances sharing this store reach each other; empty for a store one process holds. */
  default Optional<JobCoordination> coordination() {
    return Optional.empty();
  }

  /** Why the store cannot write now; empty while it can. */
  default Optional<StoreFault> fault() {
    return Optional.empty();
  }

  @Override
  void close();
}
