package dev.skillport.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every durable {@link WorkflowStore} does, run against each implementation by a subclass that
 * says how to open one and how to reopen it as a restarted process would.
 */
public abstract class WorkflowStoreContract {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private WorkflowStore store;

  /** A new, empty store. */
  protected abstract WorkflowStore open() throws Exception;

  /** The same store as the one just closed, opened again by a process that restarted. */
  protected abstract WorkflowStore reopen() throws Exception;

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  private WorkflowStore store() throws Exception {
    if (store == null) {
      store = open();
    }
    return store;
  }

  private static JsonNode run(String id, String status) {
    return NODES.objectNode().put("runId", id).put("status", status);
  }

  @Test
  void saveRun_thenRun_returnsTheDocument() throws Exception {
    store().saveRun("r1", run("r1", "running"));
    assertThat(store().run("r1")).contains(run("r1", "running"));
    assertThat(store().run("r2")).isEmpty();
  }

  @Test
  void saveRun_sameId_replacesAndRunsListsEach() throws Exception {
    store().saveRun("r1", run("r1", "running"));
    store().saveRun("r1", run("r1", "completed"));
    store().saveRun("r2", run("r2", "running"));
    assertThat(store().runs())
        .containsExactlyInAnyOrder(run("r1", "completed"), run("r2", "running"));
  }

  @Test
  void recordStep_thenCompletedStep_returnsTheOutput() throws Exception {
    JsonNode output = NODES.objectNode().put("answer", 42);
    assertThat(store().completedStep("k")).isEmpty();
    store().recordStep("k", output);
    assertThat(store().completedStep("k")).contains(output);
  }

  @Test
  void reopen_afterRestart_keepsRunsAndSteps() throws Exception {
    store().saveRun("r1", run("r1", "running"));
    store().recordStep("k", NODES.textNode("out"));
    store().close();
    store = reopen();
    assertThat(store.run("r1")).contains(run("r1", "running"));
    assertThat(store.completedStep("k")).contains(NODES.textNode("out"));
  }
}
