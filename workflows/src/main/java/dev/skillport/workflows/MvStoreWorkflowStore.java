package dev.skillport.workflows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
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
 */
public final class MvStoreWorkflowStore implements WorkflowStore {
  private static final Logger LOG = LoggerFactory.getLogger(MvStoreWorkflowStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String FILE = "workflows.mv.db";

  private final MVStore store;
  private final MVMap<String, String> runs;
  private final MVMap<String, String> steps;
  private final ExecutorService io;

  private MvStoreWorkflowStore(MVStore store, ExecutorService io) {
    this.store = store;
    this.runs = store.openMap("runs");
    this.steps = store.openMap("idempotency");
    this.io = io;
  }

  /** Opens (or creates) the store in {@code dir}; only one process may hold it at a time. */
  public static MvStoreWorkflowStore open(Path dir) throws IOException {
    Files.createDirectories(dir);
    ExecutorService io =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "workflow-store");
              t.setDaemon(true);
              return t;
            });
    try {
      MVStore store =
          io.submit(
                  () ->
                      new MVStore.Builder()
                          .fileName(dir.resolve(FILE).toString())
                          .autoCommitDisabled()
                          .open())
              .get();
      return new MvStoreWorkflowStore(store, io);
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

  @Override
  public void saveRun(String runId, JsonNode run) {
    put(runs, runId, run);
  }

  @Override
  public Optional<JsonNode> run(String runId) {
    return read(runId, onIoThread(() -> runs.get(runId)));
  }

  @Override
  public List<JsonNode> runs() {
    List<JsonNode> out = new ArrayList<>();
    for (Map.Entry<String, String> e : onIoThread(() -> Map.copyOf(runs)).entrySet()) {
      read(e.getKey(), e.getValue()).ifPresent(out::add);
    }
    return out;
  }

  @Override
  public Optional<JsonNode> completedStep(String key) {
    return read(key, onIoThread(() -> steps.get(key)));
  }

  @Override
  public void recordStep(String key, JsonNode output) {
    put(steps, key, output);
  }

  private void put(MVMap<String, String> map, String key, JsonNode doc) {
    String text;
    try {
      text = JSON.writeValueAsString(doc);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("entry " + key + " cannot be written", e);
    }
    onIoThread(
        () -> {
          map.put(key, text);
          store.commit();
          return null;
        });
  }

  @Override
  public synchronized void close() {
    if (io.isShutdown()) {
      return;
    }
    onIoThread(
        () -> {
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
