package dev.skillport.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what the store keeps only for a while, on a thread of its own (never a request's): audit
 * rows older than the retention, and idempotency keys past their window. Rows go in batches of
 * {@value #BATCH}, one short transaction each with a pause between, so a large backlog never holds
 * many locks or a long transaction. Every instance sweeps; {@code SKIP LOCKED} keeps two from
 * waiting on each other.
 */
final class Retention implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Retention.class);

  /** Rows removed per transaction. */
  static final int BATCH = 1_000;

  /** The pause between two batches. */
  static final long PAUSE_MS = 50;

  /** How often the store is swept, the first time a minute after start. */
  static final Duration EVERY = Duration.ofMinutes(10);

  private final PostgresStore store;
  private final Duration audit;
  private final ScheduledExecutorService sweeper;

  /**
   * @param audit how long audit rows are kept, or null to keep them (keys still expire)
   */
  Retention(PostgresStore store, Duration audit) {
    this.store = store;
    this.audit = audit;
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "store-retention");
              t.setDaemon(true);
              t.setPriority(Thread.MIN_PRIORITY);
              return t;
            });
  }

  void start() {
    sweeper.scheduleWithFixedDelay(this::sweepQuietly, 60, EVERY.toSeconds(), TimeUnit.SECONDS);
  }

  private void sweepQuietly() {
    try {
      Swept swept = sweep();
      if (swept.auditRows() > 0 || swept.keys() > 0) {
        LOG.info(
            "store retention: {} audit rows older than {} and {} expired idempotency keys removed",
            swept.auditRows(),
            audit,
            swept.keys());
      }
    } catch (SQLException e) {
      store.recordFault(e);
    } catch (RuntimeException e) {
      LOG.warn("store retention failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** What one sweep removed. */
  record Swept(int auditRows, int keys) {}

  /** One sweep, to the end of both backlogs. */
  Swept sweep() throws SQLException, InterruptedException {
    int rows = 0;
    if (audit != null) {
      rows =
          drain(
              "DELETE FROM skillport_audit WHERE seq IN (SELECT seq FROM skillport_audit"
                  + " WHERE at < now() - make_interval(secs => ?) ORDER BY at LIMIT ? FOR UPDATE"
                  + " SKIP LOCKED)",
              audit.toMillis() / 1000.0,
              true);
    }
    int keys =
        drain(
            "DELETE FROM skillport_idempotency WHERE (caller, key) IN (SELECT caller, key FROM"
                + " skillport_idempotency WHERE expires_at <= now() - make_interval(secs => ?)"
                + " LIMIT ? FOR UPDATE SKIP LOCKED)",
            0,
            false);
    return new Swept(rows, keys);
  }

  /** Runs {@code delete} batch after batch until a batch removes less than a whole one. */
  private int drain(String delete, double seconds, boolean audited)
      throws SQLException, InterruptedException {
    int total = 0;
    while (true) {
      int n;
      try (Connection c = store.connection()) {
        c.setAutoCommit(false);
        try {
          if (audited) {
            try (Statement s = c.createStatement()) {
              // The one way past the audit trail's append-only trigger (migration V4).
              s.execute("SET LOCAL skillport.audit_retention = 'on'");
            }
          }
          try (PreparedStatement s = c.prepareStatement(delete)) {
            s.setDouble(1, seconds);
            s.setInt(2, BATCH);
            n = s.executeUpdate();
          }
          c.commit();
        } catch (SQLException | RuntimeException e) {
          c.rollback();
          throw e;
        } finally {
          c.setAutoCommit(true);
        }
      }
      total += n;
      if (n < BATCH) {
        return total;
      }
      Thread.sleep(PAUSE_MS);
    }
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
  }
}
