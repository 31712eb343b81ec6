package dev.skillport.store.postgres;

import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.testsupport.PostgresCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** One PostgreSQL cluster per test class, a fresh database per test. */
final class TestDatabase {
  private static final AtomicInteger NEXT = new AtomicInteger();

  private TestDatabase() {}

  static PostgresCluster cluster() {
    return PostgresCluster.start(Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** A new empty database's location, the password read from the cluster's password file. */
  static PostgresLocation fresh(PostgresCluster cluster) {
    String name = "t" + NEXT.incrementAndGet();
    cluster.createDatabase(name);
    return PostgresLocation.parse(cluster.url(name) + "?user=" + PostgresCluster.USER, Map.of())
        .withPasswordFile(cluster.passwordFile());
  }

  static PostgresStore open(PostgresLocation location, String instance, Duration lease) {
    return PostgresStore.open(location, instance, lease, Map.of());
  }

  /**
   * The store a contract test works on: a fresh database per test, opened as instance {@code a},
   * reopened on the same database, closed after the test.
   */
  static final class ContractStore implements AutoCloseable {
    private PostgresLocation location;
    private PostgresStore open;

    /** A store on a fresh database of {@code cluster}. */
    PostgresStore fresh(PostgresCluster cluster) {
      location = TestDatabase.fresh(cluster);
      open = TestDatabase.open(location, "a", PostgresStore.DEFAULT_LEASE);
      return open;
    }

    /** Closes the store and opens the same database again. */
    PostgresStore reopen() {
      open.close();
      open = TestDatabase.open(location, "a", PostgresStore.DEFAULT_LEASE);
      return open;
    }

    @Override
    public void close() {
      if (open != null) {
        open.close();
      }
    }
  }

  /**
   * The instances and schedulers a fleet test opens on one or more databases, with one lease,
   * closed newest first after the test.
   */
  static final class Fleet {
    private final Duration lease;
    private final List<AutoCloseable> opened = new ArrayList<>();

    Fleet(Duration lease) {
      this.lease = lease;
    }

    /** Instance {@code instance} on {@code at}. */
    PostgresStore open(PostgresLocation at, String instance) {
      return add(TestDatabase.open(at, instance, lease));
    }

    /** A scheduler of two workers on {@code store}'s jobs. */
    JobScheduler scheduler(PostgresStore store) {
      return add(new JobScheduler(store.jobs(), 2));
    }

    /** {@code resource}, closed with the rest. */
    <T extends AutoCloseable> T add(T resource) {
      opened.add(resource);
      return resource;
    }

    /** Closes what was opened, newest first. */
    void close() throws Exception {
      for (int i = opened.size() - 1; i >= 0; i--) {
        opened.get(i).close();
      }
      opened.clear();
    }
  }
}
