package dev.skillport.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.testsupport.PostgresCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Audit retention and expired idempotency keys on a real PostgreSQL. */
class PostgresRetentionTest {
  private static PostgresCluster cluster;
  private PostgresStore store;

  @BeforeAll
  static void startCluster() {
    cluster = TestDatabase.cluster();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void sweep_removesAuditRowsOlderThanTheRetentionInBatches_andKeepsTheRest() throws Exception {
    store = TestDatabase.open(TestDatabase.fresh(cluster), "a", PostgresStore.DEFAULT_LEASE);
    int old = Retention.BATCH * 2 + 500;
    audit(old, "now() - interval '31 days'");
    audit(7, "now() - interval '29 days'");
    audit(3, "now()");
    store.retain(Duration.ofDays(30));

    Retention.Swept swept = store.sweepNow();

    assertThat(swept.auditRows()).isEqualTo(old);
    assertThat(count("SELECT count(*) FROM skillport_audit")).isEqualTo(10);
    assertThat(count("SELECT count(*) FROM skillport_audit WHERE at < now() - interval '30 days'"))
        .isZero();
    assertThat(store.sweepNow().auditRows()).isZero();
  }

  @Test
  void auditTrail_outsideTheSweep_staysAppendOnly() throws Exception {
    store = TestDatabase.open(TestDatabase.fresh(cluster), "a", PostgresStore.DEFAULT_LEASE);
    audit(2, "now() - interval '400 days'");
    try (Connection c = store.connection();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeUpdate("DELETE FROM skillport_audit"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("append-only");
      assertThatThrownBy(() -> s.executeUpdate("UPDATE skillport_audit SET instance = 'x'"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("append-only");
    }
    assertThat(count("SELECT count(*) FROM skillport_audit")).isEqualTo(2);
  }

  @Test
  void sweep_withoutAuditRetention_keepsTheAuditAndRemovesExpiredKeys() throws Exception {
    store = TestDatabase.open(TestDatabase.fresh(cluster), "a", PostgresStore.DEFAULT_LEASE);
    audit(5, "now() - interval '400 days'");
    try (Connection c = store.connection();
        Statement s = c.createStatement()) {
      s.executeUpdate(
          "INSERT INTO skillport_idempotency (caller, key, fingerprint, job_id, expires_at)"
              + " SELECT 'alice', 'k' || g, 'f', 'j' || g, now() - interval '1 minute'"
              + " FROM generate_series(1, 1200) g");
      s.executeUpdate(
          "INSERT INTO skillport_idempotency (caller, key, fingerprint, job_id, expires_at)"
              + " VALUES ('alice', 'live', 'f', 'j', now() + interval '1 hour')");
    }
    store.retain(null);

    Retention.Swept swept = store.sweepNow();

    assertThat(swept).isEqualTo(new Retention.Swept(0, 1200));
    assertThat(count("SELECT count(*) FROM skillport_audit")).isEqualTo(5);
    assertThat(count("SELECT count(*) FROM skillport_idempotency")).isEqualTo(1);
  }

  private void audit(int rows, String at) throws SQLException {
    try (Connection c = store.connection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO skillport_audit (at, instance, entry) SELECT "
                    + at
                    + ", 'a', jsonb_build_object('tool', 'echo', 'n', g)"
                    + " FROM generate_series(1, ?) g")) {
      s.setInt(1, rows);
      s.executeUpdate();
    }
  }

  private long count(String sql) throws SQLException {
    try (Connection c = store.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
