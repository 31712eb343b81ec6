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
  private PostgresLocation location;
  private PostgresStore open;

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
    if (open != null) {
      open.close();
    }
  }

  @Override
  protected WorkflowStore open() {
    location = TestDatabase.fresh(cluster);
    open = TestDatabase.open(location, "a", PostgresStore.DEFAULT_LEASE);
    return open.workflows();
  }

  @Override
  protected WorkflowStore reopen() {
    open.close();
    open = TestDatabase.open(location, "a", PostgresStore.DEFAULT_LEASE);
    return open.workflows();
  }
}
