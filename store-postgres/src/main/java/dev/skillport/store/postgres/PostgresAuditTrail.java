package dev.skillport.store.postgres;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.runtime.AuditTrail;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's audit trail in {@code skillport_audit}: one row per call (the masked line as {@code
 * entry}, the instance that served it, when), appended, never changed (a trigger refuses it). A
 * call hands its line to a queue and goes on; a thread of its own writes the queue in batches, and
 * keeps what it could not write while the database is unreachable (up to {@link #QUEUED} lines;
 * later ones are counted and dropped, with a warning).
 */
final class PostgresAuditTrail implements AuditTrail {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresAuditTrail.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The most lines waiting to be written. */
  static final int QUEUED = 10_000;

  private static final int BATCH = 500;

  private final PostgresStore store;
  private final BlockingQueue<ObjectNode> queue = new LinkedBlockingQueue<>(QUEUED);
  private final AtomicLong dropped = new AtomicLong();
  private final Thread writer;
  private volatile boolean open = true;

  PostgresAuditTrail(PostgresStore store) {
    this.store = store;
    this.writer = new Thread(this::write, "store-audit");
    writer.setDaemon(true);
  }

  /** Starts the thread that writes the queued lines. */
  void start() {
    writer.start();
  }

  @Override
  public void append(ObjectNode line) {
    if (!queue.offer(line)) {
      long n = dropped.incrementAndGet();
      if (n == 1 || n % 1000 == 0) {
        LOG.warn("{} audit lines dropped: the store has not been writable for a while", n);
      }
    }
  }

  @Override
  public List<AuditEntry> recent(Principal viewer, int limit) {
    String where =
        viewer.operator()
            ? ""
            : viewer.name() == null
                ? " WHERE entry ->> 'caller' IS NULL"
                : " WHERE entry ->> 'caller' = ?";
    List<AuditEntry> out = new ArrayList<>();
    try (Connection c = store.connection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT instance, entry::text FROM skillport_audit"
                    + where
                    + " ORDER BY at DESC, seq DESC LIMIT ?")) {
      int i = 1;
      if (!viewer.operator() && viewer.name() != null) {
        s.setString(i++, viewer.name());
      }
      s.setInt(i, Math.max(0, limit));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          try {
            out.add(AuditTrail.entry(JSON.readTree(rs.getString(2)), rs.getString(1)));
          } catch (IOException | RuntimeException e) {
            LOG.debug("audit row skipped: {}", e.toString());
          }
        }
      }
      store.recovered();
      return out;
    } catch (SQLException e) {
      throw store.failed(e);
    }
  }

  /** Writes what is queued, for at most {@code budgetMillis}, and stops the writer. */
  void close(long budgetMillis) {
    open = false;
    writer.interrupt();
    try {
      writer.join(budgetMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!queue.isEmpty()) {
      LOG.warn("{} audit lines were not written before the server stopped", queue.size());
    }
  }

  private void write() {
    List<ObjectNode> batch = new ArrayList<>(BATCH);
    while (open || !queue.isEmpty()) {
      try {
        if (batch.isEmpty()) {
          ObjectNode first = open ? queue.take() : queue.poll();
          if (first == null) {
            return;
          }
          batch.add(first);
          queue.drainTo(batch, BATCH - 1);
        }
        insert(batch);
        batch.clear();
        store.recovered();
      } catch (InterruptedException e) {
        // Closing: write what is queued once more, then stop.
        open = false;
      } catch (SQLException e) {
        store.recordFault(e);
        if (!open) {
          return;
        }
        pause();
      } catch (RuntimeException e) {
        LOG.warn("audit lines not written: {}", e.toString());
        batch.clear();
      }
    }
  }

  private void insert(List<ObjectNode> batch) throws SQLException {
    try (Connection c = store.connection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO skillport_audit (at, instance, entry) VALUES (?, ?, ?::jsonb)")) {
      for (ObjectNode line : batch) {
        s.setTimestamp(1, PostgresStore.timestamp(at(line)));
        s.setString(2, store.instance());
        s.setString(3, line.toString());
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  private Instant at(ObjectNode line) {
    try {
      return Instant.parse(line.path("time").asText());
    } catch (RuntimeException e) {
      return store.clock().instant();
    }
  }

  private void pause() {
    try {
      TimeUnit.SECONDS.sleep(1);
    } catch (InterruptedException e) {
      open = false;
    }
  }
}
