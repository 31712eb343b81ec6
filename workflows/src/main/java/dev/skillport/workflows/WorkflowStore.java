package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * Where workflow runs and the outputs of finished idempotent steps live. The default is an embedded
 * file next to the job store ({@link MvStoreWorkflowStore}); {@link MemoryWorkflowStore} keeps them
 * for one process. Implementations are thread-safe, and a write that returned survives a crash of
 * the process.
 */
public interface WorkflowStore extends AutoCloseable {
  /** Inserts or replaces a run's stored document. */
  void saveRun(String runId, JsonNode run);

  Optional<JsonNode> run(String runId);

  /** Every stored run document. */
  List<JsonNode> runs();

  /** The recorded output of a step that finished under {@code key}. */
  Optional<JsonNode> completedStep(String key);

  /** Records that the step under {@code key} finished with {@code output}. */
  void recordStep(String key, JsonNode output);

  @Override
  void close();
}
