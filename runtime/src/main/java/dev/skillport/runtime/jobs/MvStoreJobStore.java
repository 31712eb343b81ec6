package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job records in an H2 MVStore file ({@code jobs.mv.db} in the store folder), one JSON document per
 * job. Every save is committed at once: MVStore appends a new chunk and never rewrites live data in
 * place, so a process killed mid-write reopens at the last complete commit.
 */
public final class MvStoreJobStore implements JobStore {
  private static final Logger LOG = LoggerFactory.getLogger(MvStoreJobStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String FILE = "jobs.mv.db";

  private final MVStore store;
  private final MVMap<String, String> jobs;

  private MvStoreJobStore(MVStore store) {
    this.store = store;
    this.jobs = store.openMap("jobs");
  }

  /**
   * Opens (or creates) the store in {@code dir}; only one process may hold it at a time.
   *
   * @throws StoreInUseException when another process (or this one) holds it
   */
  public static MvStoreJobStore open(Path dir) throws IOException {
    Files.createDirectories(dir);
    try {
      // Commits are explicit (each save); the background writer would only add latency.
      MVStore store =
          new MVStore.Builder().fileName(dir.resolve(FILE).toString()).autoCommitDisabled().open();
      return new MvStoreJobStore(store);
    } catch (MVStoreException e) {
      if (e.getErrorCode() == DataUtils.ERROR_FILE_LOCKED) {
        throw new StoreInUseException(dir, e);
      }
      throw new IOException("cannot open the job store in " + dir + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new IOException("cannot open the job store in " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void save(JobRecord job) {
    String doc;
    try {
      doc = JSON.writeValueAsString(job.toStored());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("job " + job.id() + " cannot be written", e);
    }
    synchronized (store) {
      jobs.put(job.id(), doc);
      store.commit();
    }
  }

  @Override
  public Optional<JobRecord> find(String id) {
    String doc = jobs.get(id);
    return doc == null ? Optional.empty() : read(id, doc);
  }

  @Override
  public List<JobRecord> all() {
    List<JobRecord> out = new ArrayList<>();
    for (var e : jobs.entrySet()) {
      read(e.getKey(), e.getValue()).ifPresent(out::add);
    }
    return out;
  }

  @Override
  public boolean delete(String id) {
    synchronized (store) {
      boolean removed = jobs.remove(id) != null;
      if (removed) {
        store.commit();
      }
      return removed;
    }
  }

  @Override
  public void close() {
    synchronized (store) {
      if (!store.isClosed()) {
        store.close();
      }
    }
  }

  private static Optional<JobRecord> read(String id, String doc) {
    try {
      return Optional.of(JobRecord.fromStored(JSON.readTree(doc)));
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("job record {} is damaged and is skipped: {}", id, e.getMessage());
      return Optional.empty();
    }
  }
}
