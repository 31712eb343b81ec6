package dev.skillport.workflows;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The workflow store contract on the embedded store. */
class MvStoreWorkflowStoreContractTest extends WorkflowStoreContract {
  @TempDir Path dir;

  @Override
  protected WorkflowStore open() throws Exception {
    return MvStoreWorkflowStore.open(dir);
  }

  @Override
  protected WorkflowStore reopen() throws Exception {
    return MvStoreWorkflowStore.open(dir);
  }
}
