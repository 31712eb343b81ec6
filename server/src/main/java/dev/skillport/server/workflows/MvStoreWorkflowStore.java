package dev.skillport.server.workflows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs and idempotency records in an H2 MVStore file ({@code workflows.mv.db}, next to the job
 * store's file), one JSON document per entry, committed on every write. Its own file, because an
 * MVStore file has one owner and the job store already holds {@code jobs.mv.db}.
 */
public final class MvStoreWorkflowStore implements WorkflowStore {
  private static final Logger LOG = LoggerFactory.getLogger(MvStoreWorkflowStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String FILE = "workflows.mv.db";

  private final MVStore store;
  private final MVMap<String, String> runs;
  private final MVMap<String, String> steps;

  private MvStoreWorkflowStore(MVStore store) {
    this.store = store;
    this.runs = store.openMap("runs");
    this.steps = store.openMap("idempotency");
  }

  /** Opens (or creates) the store in {@code dir}; only one process may hold it at a time. */
  public static MvStoreWorkflowStore open(Path dir) throws IOException {
    Files.createDirectories(dir);
    try {
      MVStore store =
          new MVStore.Builder().fileName(dir.resolve(FILE).toString()).autoCommitDisabled().open();
      return new MvStoreWorkflowStore(store);
    } catch (RuntimeException e) {
      throw new IOException("cannot open the workflow store in " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void saveRun(String runId, JsonNode run) {
    put(runs, runId, run);
  }

  @Override
  public Optional<JsonNode> run(String runId) {
    return read(runId, runs.get(runId));
  }

  @Override
  public List<JsonNode> runs() {
    List<JsonNode> out = new ArrayList<>();
    for (var e : runs.entrySet()) {
      read(e.getKey(), e.getValue()).ifPresent(out::add);
    }
    return out;
  }

  @Override
  public Optional<JsonNode> completedStep(String key) {
    return read(key, steps.get(key));
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
    synchronized (store) {
      map.put(key, text);
      store.commit();
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
