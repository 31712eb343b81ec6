package dev.skillport.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.testsupport.SmallFileSystem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The workflow store on a real file system that fills up and frees again. */
class MvStoreWorkflowStoreTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @Test
  void saveRun_diskFull_keepsTheRunReadableAndWritesItOnceFreed() throws Exception {
    try (SmallFileSystem fs = SmallFileSystem.mount(2)) {
      Path dir = fs.root().resolve("jobs");
      try (MvStoreWorkflowStore store = MvStoreWorkflowStore.open(dir)) {
        store.saveRun("r1", run("r1", "running"));
        fs.fill();
        ObjectNode finished = run("r1", "completed");
        boolean refused = false;
        for (int i = 0; i < 1000 && !refused; i++) {
          try {
            store.saveRun("filler-" + i, run("filler-" + i, "completed"));
          } catch (IllegalStateException e) {
            refused = true;
          }
        }
        assertThat(refused).as("a full disk never refused a write").isTrue();
        assertThatThrownBy(() -> store.saveRun("r1", finished))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("written once it can");
        assertThat(store.run("r1").orElseThrow().path("status").asText()).isEqualTo("completed");

        fs.free();
        // The next access reopens the file and writes what was kept before it reads.
        assertThat(store.run("r1").orElseThrow().path("status").asText()).isEqualTo("completed");
        store.saveRun("r2", run("r2", "running"));
      }
      try (MvStoreWorkflowStore reopened = MvStoreWorkflowStore.open(dir)) {
        assertThat(reopened.run("r1").orElseThrow().path("status").asText()).isEqualTo("completed");
      }
    }
  }

  private static ObjectNode run(String id, String status) {
    return NODES.objectNode().put("run_id", id).put("status", status);
  }
}
