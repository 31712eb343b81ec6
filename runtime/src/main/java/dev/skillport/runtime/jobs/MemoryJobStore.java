package dev.skillport.runtime.jobs;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Job records in memory only: for embedding and tests, where nothing must survive a restart. */
public final class MemoryJobStore implements JobStore {
  private final Map<String, JobRecord> jobs = new ConcurrentHashMap<>();

  @Override
  public void save(JobRecord job) {
    jobs.put(job.id(), job);
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
