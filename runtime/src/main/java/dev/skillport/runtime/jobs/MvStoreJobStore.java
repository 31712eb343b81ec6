package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 *
 * <p>A write that fails (a full or failing disk) makes MVStore close itself. The store then keeps
 * every change it could not write in memory, answers reads from those first, reports a {@link
 * #fault()}, and on a thread of its own reopens the file (from its last complete commit) and writes
 * what it holds, retrying with a growing pause until a write succeeds.
 */
public final class MvStoreJobStore implements JobStore {
  private static final Logger LOG = LoggerFactory.getLogger(MvStoreJobStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String FILE = "jobs.mv.db";
  static final String NAME = "jobs";

  /** The map of idempotency keys, beside the jobs: a key and its job are committed together. */
  static final String KEYS = "idempotency";

  /** The pause before the first retry; doubled after each failed one up to {@link #LAST_RETRY}. */
  static final Duration FIRST_RETRY = Duration.ofMillis(100);

  static final Duration LAST_RETRY = Duration.ofSeconds(1);

  private final Path file;
  private final Clock clock;
  private final Object lock = new Object();

  /** Changes not yet on disk, the newest per id: a document, or empty for a deletion. */
  private final Map<String, Optional<String>> unwritten = new ConcurrentHashMap<>();

  private final ScheduledExecutorService retries;
  private volatile MVStore store;
  private volatile MVMap<String, String> jobs;
  private volatile IdempotencyKeys keys;
  private volatile StoreFault fault;
  private Duration nextRetry = FIRST_RETRY;
  private boolean retryScheduled;
  private boolean closed;

  private MvStoreJobStore(Path file, MVStore store, Clock clock) {
    this.file = file;
    this.clock = clock;
    this.store = store;
    this.jobs = store.openMap("jobs");
    this.keys = new IdempotencyKeys(store.openMap(KEYS));
    this.retries =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "job-store-retry");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Opens (or creates) the store in {@code dir}; only one process may hold it at a time.
   *
   * @throws StoreInUseException when another process (or this one) holds it
   */
  public static MvStoreJobStore open(Path dir) throws IOException {
    return open(dir, Clock.systemUTC());
  }

  static MvStoreJobStore open(Path dir, Clock clock) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE);
    try {
      return new MvStoreJobStore(file, openFile(file), clock);
    } catch (MVStoreException e) {
      if (e.getErrorCode() == DataUtils.ERROR_FILE_LOCKED) {
        throw new StoreInUseException(dir, e);
      }
      throw new IOException("cannot open the job store in " + dir + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new IOException("cannot open the job store in " + dir + ": " + e.getMessage(), e);
    }
  }

  private static MVStore openFile(Path file) {
    // Commits are explicit (each save); the background writer would only add latency.
    return new MVStore.Builder().fileName(file.toString()).autoCommitDisabled().open();
  }

  /**
   * Saves {@code job} and commits.
   *
   * @throws StoreUnavailableException when it cannot be written now: the record is then held in
   *     memory (reads return it) and written once the store can write again
   */
  @Override
  public void save(JobRecord job) {
    String doc = encode(job);
    synchronized (lock) {
      checkOpen();
      if (fault == null) {
        try {
          jobs.put(job.id(), doc);
          store.commit();
          return;
        } catch (MVStoreException | IllegalStateException e) {
          failed(e);
        }
      }
      unwritten.put(job.id(), Optional.of(doc));
      throw new StoreUnavailableException(fault);
    }
  }

  /**
   * Saves new {@code job} under {@code key} unless the key names a job already; the key and the job
   * are one commit.
   *
   * @throws StoreUnavailableException when it cannot be written now: nothing is kept
   */
  @Override
  public Optional<IdempotencyKey.Prior> saveNew(JobRecord job, IdempotencyKey key) {
    String doc = encode(job);
    synchronized (lock) {
      checkOpen();
      if (fault == null) {
        try {
          Optional<IdempotencyKey.Prior> prior =
              keys.prior(key, id -> find(id).isPresent(), clock.instant());
          if (prior.isEmpty()) {
            keys.bind(key, job.id(), clock.instant());
            jobs.put(job.id(), doc);
            store.commit();
          }
          return prior;
        } catch (MVStoreException | IllegalStateException e) {
          failed(e);
        }
      }
      throw new StoreUnavailableException(fault);
    }
  }

  /**
   * The record with {@code id}: a change not yet written first, else the file's.
   *
   * @throws StoreUnavailableException when the record is not held and the file cannot be read now
   */
  @Override
  public Optional<JobRecord> find(String id) {
    Optional<String> held = unwritten.get(id);
    if (held != null) {
      return held.flatMap(doc -> read(id, doc));
    }
    try {
      return read(id, jobs.get(id));
    } catch (MVStoreException | IllegalStateException e) {
      // A failed write closed the file under this read; the retry that reopens it holds the lock.
      synchronized (lock) {
        held = unwritten.get(id);
        if (held != null) {
          return held.flatMap(doc -> read(id, doc));
        }
        try {
          return read(id, jobs.get(id));
        } catch (MVStoreException | IllegalStateException again) {
          throw unavailable(again);
        }
      }
    }
  }

  /**
   * Every readable record, changes not yet written included.
   *
   * @throws StoreUnavailableException when the file cannot be read now
   */
  @Override
  public List<JobRecord> all() {
    Map<String, String> docs;
    // Under the lock: the file's records and the changes held over them as of one moment.
    synchronized (lock) {
      try {
        docs = new HashMap<>(jobs);
      } catch (MVStoreException | IllegalStateException e) {
        throw unavailable(e);
      }
      unwritten.forEach(
          (id, held) -> held.ifPresentOrElse(doc -> docs.put(id, doc), () -> docs.remove(id)));
    }
    List<JobRecord> out = new ArrayList<>();
    docs.forEach((id, doc) -> read(id, doc).ifPresent(out::add));
    return out;
  }

  /** Removes a record; while the store cannot write, the deletion is held like a save. */
  @Override
  public boolean delete(String id) {
    synchronized (lock) {
      checkOpen();
      if (fault == null) {
        try {
          boolean removed = jobs.remove(id) != null;
          if (removed) {
            store.commit();
          }
          return removed;
        } catch (MVStoreException | IllegalStateException e) {
          failed(e);
        }
      }
      Optional<String> before = unwritten.put(id, Optional.empty());
      if (before != null) {
        return before.isPresent();
      }
      try {
        return jobs.containsKey(id);
      } catch (MVStoreException | IllegalStateException e) {
        return false;
      }
    }
  }

  /** Why writes fail now; empty while they succeed. */
  @Override
  public Optional<StoreFault> fault() {
    return Optional.ofNullable(fault);
  }

  /** Closes the file, after a last attempt to write the changes held in memory. */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      retries.shutdownNow();
      if (!unwritten.isEmpty() && !writeHeld()) {
        LOG.warn(
            "{} job changes could not be written before the store closed: {}",
            unwritten.size(),
            fault.error());
      }
      if (!store.isClosed()) {
        store.close();
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the job store is closed");
    }
  }

  /** Records a failed write and has the retry thread take over; holds the lock. */
  private void failed(RuntimeException e) {
    StoreFault now = new StoreFault(NAME, describe(e), clock.instant());
    if (fault == null) {
      LOG.warn(
          "the job store cannot write ({}): changes are kept in memory until it can", now.error());
      fault = now;
    } else {
      fault = new StoreFault(NAME, now.error(), fault.since());
    }
    if (!retryScheduled) {
      retryScheduled = true;
      nextRetry = FIRST_RETRY;
      // Reopened at once, so the file's records can be read while writes fail.
      retries.execute(this::retry);
    }
  }

  /** Reopens the file if it closed and writes what is held; schedules itself until that works. */
  private void retry() {
    synchronized (lock) {
      retryScheduled = false;
      if (closed) {
        return;
      }
      if (writeHeld()) {
        LOG.info("the job store writes again; the changes held in memory are written");
        fault = null;
        return;
      }
      reopen(); // for reads, until the next attempt
      retryScheduled = true;
      retries.schedule(this::retry, nextRetry.toMillis(), TimeUnit.MILLISECONDS);
      nextRetry =
          nextRetry.multipliedBy(2).compareTo(LAST_RETRY) > 0
              ? LAST_RETRY
              : nextRetry.multipliedBy(2);
    }
  }

  /** Writes the held changes in one commit; holds the lock. False when that failed. */
  private boolean writeHeld() {
    try {
      openIfClosed();
      unwritten.forEach(
          (id, held) -> held.ifPresentOrElse(doc -> jobs.put(id, doc), () -> jobs.remove(id)));
      store.commit();
      unwritten.clear();
      return true;
    } catch (MVStoreException | IllegalStateException e) {
      if (fault != null) {
        fault = new StoreFault(NAME, describe(e), fault.since());
      }
      return false;
    }
  }

  /** Opens the file again after a failed write closed it, if it can; holds the lock. */
  private void reopen() {
    try {
      openIfClosed();
    } catch (MVStoreException | IllegalStateException e) {
      LOG.debug("the job store cannot be reopened yet: {}", e.toString());
    }
  }

  /** MVStore's recovery: a reopened file is at its last complete commit. Holds the lock. */
  private void openIfClosed() {
    if (store.isClosed()) {
      store = openFile(file);
      jobs = store.openMap("jobs");
      keys = new IdempotencyKeys(store.openMap(KEYS));
    }
  }

  private StoreUnavailableException unavailable(RuntimeException e) {
    StoreFault now = fault;
    return new StoreUnavailableException(
        now != null ? now : new StoreFault(NAME, describe(e), clock.instant()));
  }

  /** The deepest cause's message (the file system's words), without the store's path. */
  private String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return message
        .replace(file.toString(), FILE)
        .replace(file.getParent().toString(), "the store folder");
  }

  private static String encode(JobRecord job) {
    try {
      return JSON.writeValueAsString(JobRecordCodec.write(job));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("job " + job.id() + " cannot be written", e);
    }
  }

  private static Optional<JobRecord> read(String id, String doc) {
    if (doc == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(JobRecordCodec.read(JSON.readTree(doc)));
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("job record {} is damaged and is skipped: {}", id, e.getMessage());
      return Optional.empty();
    }
  }
}
