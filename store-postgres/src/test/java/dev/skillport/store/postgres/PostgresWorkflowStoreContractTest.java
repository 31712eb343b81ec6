package dev.skillport.store.postgres;

import dev.skillport.testsupport.PostgresCluster;
import dev.skillport.workflows.WorkflowStore;
import dev.skillport.workflows.WorkflowStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The workflow store contract on a real PostgreSQL. */
class PostgresWorkflowStoreContractTest extends WorkflowStoreContract {
  private static PostgresCluster cluster;
  private final TestDatabase.ContractStore store = new TestDatabase.ContractStore();

  @BeforeAll
  static void startCluster() {
    cluster = TestDatabase.cluster();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @AfterEach
  void closeDatabase() {
    store.close();
  }

  @Override
  protected WorkflowStore open() {
    return store.fresh(cluster).workflows();
  }

  @Override
  protected WorkflowStore reopen() {
    return store.reopen().workflows();
  }
}
