package dev.skillport.runtime.jobs;

import java.util.List;
import java.util.Optional;

/** A job store for tests that keeps its records in a {@link MemoryJobStore}; subclasses add. */
abstract class MemoryBackedStore implements JobStore {
  final MemoryJobStore inner = new MemoryJobStore();

  @Override
  public void save(JobRecord job) {
    inner.save(job);
  }

  @Override
  public Optional<JobRecord> find(String id) {
    return inner.find(id);
  }

  @Override
  public List<JobRecord> all() {
    return inner.all();
  }

  @Override
  public boolean delete(String id) {
    return inner.delete(id);
  }

  @Override
  public void close() {}
}
