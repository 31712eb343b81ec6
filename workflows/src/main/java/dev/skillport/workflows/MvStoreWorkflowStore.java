package dev.skillport.workflows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs and idempotency records in an H2 MVStore file ({@code workflows.mv.db}, next to the job
 * store's file), one JSON document per entry, committed on every write. Its own file, because an
 * MVStore file has one owner and the job store already holds {@code jobs.mv.db}.
 *
 * <p>Every file access happens on one thread of its own. Run threads are interrupted when a run is
 * cancelled or a step times out, and an interrupt that arrives while a thread is inside a file
 * channel closes the channel, which would leave the store unusable for every run.
 *
 * <p>A write that fails (a full disk) makes MVStore close the file. The entry is then kept in
 * memory, reads answer it first, and the store's thread reopens the file (at its last complete
 * commit) and writes what it keeps before its next access and every second until that succeeds.
 */
public final class MvStoreWorkflowStore implements WorkflowStore {
  private static final Logger LOG = LoggerFactory.getLogger(MvStoreWorkflowStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String FILE = "workflows.mv.db";

  private static final String RUNS = "runs";
  private static final String STEPS = "idempotency";

  /** How often the store's thread tries to write what it keeps. */
  private static final long RETRY_MILLIS = 1000;

  private final Path file;
  private final ScheduledExecutorService io;

  /** Entries not yet written, by map and key; touched on the store's thread only. */
  private final Map<String, Map<String, String>> kept = new HashMap<>();

  private MVStore store;

  private MvStoreWorkflowStore(Path file, MVStore store, ScheduledExecutorService io) {
    this.file = file;
    this.store = store;
    this.io = io;
    io.scheduleWithFixedDelay(this::writeKept, RETRY_MILLIS, RETRY_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Opens (or creates) the store in {@code dir}; only one process may hold it at a time. */
  public static MvStoreWorkflowStore open(Path dir) throws IOException {
    Files.createDirectories(dir);
    ScheduledExecutorService io =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "workflow-store");
              t.setDaemon(true);
              return t;
            });
    Path file = dir.resolve(FILE);
    try {
      MVStore store = io.submit(() -> openFile(file)).get();
      return new MvStoreWorkflowStore(file, store, io);
    } catch (ExecutionException e) {
      io.shutdown();
      throw new IOException(
          "cannot open the workflow store in " + dir + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (InterruptedException e) {
      io.shutdown();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while opening the workflow store in " + dir, e);
    }
  }

  private static MVStore openFile(Path file) {
    return new MVStore.Builder().fileName(file.toString()).autoCommitDisabled().open();
  }

  /**
   * Saves a run's document.
   *
   * @throws IllegalStateException when it cannot be written now; it is kept and written later
   */
  @Override
  public void saveRun(String runId, JsonNode run) {
    put(RUNS, runId, run);
  }

  @Override
  public Optional<JsonNode> run(String runId) {
    return read(runId, onIoThread(() -> get(RUNS, runId)));
  }

  @Override
  public List<JsonNode> runs() {
    List<JsonNode> out = new ArrayList<>();
    for (Map.Entry<String, String> e : onIoThread(() -> entries(RUNS)).entrySet()) {
      read(e.getKey(), e.getValue()).ifPresent(out::add);
    }
    return out;
  }

  @Override
  public Optional<JsonNode> completedStep(String key) {
    return read(key, onIoThread(() -> get(STEPS, key)));
  }

  /**
   * Records a finished step's output.
   *
   * @throws IllegalStateException when it cannot be written now; it is kept and written later
   */
  @Override
  public void recordStep(String key, JsonNode output) {
    put(STEPS, key, output);
  }

  private void put(String map, String key, JsonNode doc) {
    String text;
    try {
      text = JSON.writeValueAsString(doc);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("entry " + key + " cannot be written", e);
    }
    onIoThread(
        () -> {
          writeKept();
          if (kept.isEmpty()) {
            try {
              store.<String, String>openMap(map).put(key, text);
              store.commit();
              return null;
            } catch (MVStoreException | IllegalStateException e) {
              LOG.warn(
                  "the workflow store cannot write ({}): entries are kept in memory until it can",
                  e.getMessage());
            }
          }
          kept.computeIfAbsent(map, m -> new HashMap<>()).put(key, text);
          throw new IllegalStateException(
              "the workflow store cannot write now; entry " + key + " is written once it can");
        });
  }

  /** An entry as kept in memory, else as in the file; on the store's thread. */
  private String get(String map, String key) {
    writeKept();
    String held = kept.getOrDefault(map, Map.of()).get(key);
    return held != null ? held : store.<String, String>openMap(map).get(key);
  }

  /** Every entry of a map, those kept in memory over the file's; on the store's thread. */
  private Map<String, String> entries(String map) {
    writeKept();
    Map<String, String> all = new HashMap<>(store.<String, String>openMap(map));
    all.putAll(kept.getOrDefault(map, Map.of()));
    return all;
  }

  /**
   * Reopens the file if a failed write closed it, and writes the entries kept in memory; on the
   * store's thread. They stay kept when that fails.
   */
  private void writeKept() {
    if (kept.isEmpty() && !store.isClosed()) {
      return;
    }
    try {
      if (store.isClosed()) {
        store = openFile(file);
      }
      if (!kept.isEmpty()) {
        kept.forEach((map, entries) -> store.<String, String>openMap(map).putAll(entries));
        store.commit();
        kept.clear();
        LOG.info("the workflow store writes again; the entries kept in memory are written");
      }
    } catch (MVStoreException | IllegalStateException e) {
      LOG.debug("the workflow store cannot write yet: {}", e.toString());
    }
  }

  @Override
  public synchronized void close() {
    if (io.isShutdown()) {
      return;
    }
    onIoThread(
        () -> {
          writeKept();
          if (!kept.isEmpty()) {
            LOG.warn("workflow store entries could not be written before it closed");
          }
          if (!store.isClosed()) {
            store.close();
          }
          return null;
        });
    io.shutdown();
  }

  /**
   * Runs {@code work} on the store's thread and waits for it without giving up on an interrupt (the
   * interrupt is kept for the caller), so a half-done write never races a later one.
   */
  private <T> T onIoThread(Callable<T> work) {
    Future<T> result = io.submit(work);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return result.get(1, TimeUnit.DAYS);
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException r) {
            throw r;
          }
          throw new IllegalStateException("workflow store failed: " + cause, cause);
        } catch (java.util.concurrent.TimeoutException e) {
          throw new IllegalStateException("workflow store did not answer", e);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Optional<JsonNode> read(String key, String doc) {
    if (doc == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readTree(doc));
    } catch (IOException e) {
      LOG.warn("workflow store entry {} is damaged and is skipped: {}", key, e.getMessage());
      return Optional.empty();
    }
  }
}
