package dev.skillport.runtime.jobs;

import java.util.List;
import java.util.Optional;

/**
 * Where job records live. The default is an embedded on-disk store ({@link MvStoreJobStore}); a
 * shared database can implement this for several server instances. Implementations are thread-safe,
 * and a {@link #save} that returned has survived a crash of the server process. A store that cannot
 * write throws {@link StoreUnavailableException} from {@link #save}, keeps the change in memory as
 * the record's latest state (reads return it) and writes it once it can again, by itself; {@link
 * #fault} says why meanwhile.
 */
public interface JobStore extends AutoCloseable {
  /** Inserts or replaces the record with the same id. */
  void save(JobRecord job);

  Optional<JobRecord> find(String id);

  /** Every readable record; damaged ones are skipped (and reported by the implementation). */
  List<JobRecord> all();

  /** Removes a record; false when there was none. */
  boolean delete(String id);

  /** Why the store cannot write now; empty while it can. */
  default Optional<StoreFault> fault() {
    return Optional.empty();
  }

  @Override
  void close();
}
