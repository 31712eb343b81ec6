package dev.skillport.store.postgres;

import dev.skillport.runtime.jobs.JobStore;
import dev.skillport.runtime.jobs.JobStoreContract;
import dev.skillport.testsupport.PostgresCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The job store contract on a real PostgreSQL. */
class PostgresJobStoreContractTest extends JobStoreContract {
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
  protected JobStore open() {
    return store.fresh(cluster).jobs();
  }

  @Override
  protected JobStore reopen() {
    return store.reopen().jobs();
  }
}
