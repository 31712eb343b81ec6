package dev.skillport.store.postgres;

import dev.skillport.testsupport.PostgresCluster;
import java.nio.file.Path;
import java.time.Duration;
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
}
