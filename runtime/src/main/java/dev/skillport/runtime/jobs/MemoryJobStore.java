package dev.skillport.runtime.jobs;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Job records in memory only: for embedding and tests, where nothing must survive a restart. */
public final class MemoryJobStore implements JobStore {
  private final Map<String, JobRecord> jobs = new ConcurrentHashMap<>();
  private final IdempotencyKeys keys = new IdempotencyKeys();

  @Override
  public void save(JobRecord job) {
    jobs.put(job.id(), job);
  }

  @Override
  public synchronized Optional<IdempotencyKey.Prior> saveNew(JobRecord job, IdempotencyKey key) {
    Optional<IdempotencyKey.Prior> prior =
        keys.prior(key, jobs::containsKey, java.time.Instant.now());
    if (prior.isEmpty()) {
      keys.bind(key, job.id(), java.time.Instant.now());
      jobs.put(job.id(), job);
    }
    return prior;
  }

  @Override
  public Optional<JobRecord> find(String id) {
    return Optional.ofNullable(jobs.get(id));
  }

  @Override
  public List<JobRecord> all() {
    return List.copyOf(jobs.values());
  }

  @Override
  public boolean delete(String id) {
    return jobs.remove(id) != null;
  }

  @Override
  public void close() {
    // Nothing to release.
  }
}
