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
  protected JobStore open() {
    location = TestDatabase.fresh(cluster);
    open = TestDatabase.open(location, "a", PostgresStore.DEFAULT_LEASE);
    return open.jobs();
  }

  @Override
  protected JobStore reopen() {
    open.close();
    open = TestDatabase.open(location, "a", PostgresStore.DEFAULT_LEASE);
    return open.jobs();
  }
}
