package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Runs and idempotency records for the life of the process only. */
public final class MemoryWorkflowStore implements WorkflowStore {
  private final Map<String, JsonNode> runs = new ConcurrentHashMap<>();
  private final Map<String, JsonNode> steps = new ConcurrentHashMap<>();

  @Override
  public void saveRun(String runId, JsonNode run) {
    runs.put(runId, run.deepCopy());
  }

  @Override
  public Optional<JsonNode> run(String runId) {
    return Optional.ofNullable(runs.get(runId)).map(JsonNode::deepCopy);
  }

  @Override
  public List<JsonNode> runs() {
    List<JsonNode> out = new ArrayList<>();
    runs.values().forEach(r -> out.add(r.deepCopy()));
    return out;
  }

  @Override
  public Optional<JsonNode> completedStep(String key) {
    return Optional.ofNullable(steps.get(key)).map(JsonNode::deepCopy);
  }

  @Override
  public void recordStep(String key, JsonNode output) {
    steps.put(key, output.deepCopy());
  }

  @Override
  public void close() {}
}
