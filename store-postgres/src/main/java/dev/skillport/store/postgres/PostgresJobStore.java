package dev.skillport.store.postgres;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.runtime.jobs.Claimant;
import dev.skillport.runtime.jobs.IdempotencyKey;
import dev.skillport.runtime.jobs.JobCoordination;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobRecordCodec;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.runtime.jobs.JobStore;
import dev.skillport.runtime.jobs.StoreFault;
import dev.skillport.runtime.jobs.StoreUnavailableException;
import dev.skillport.runtime.jobs.StoredCall;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job records in {@code skillport_jobs}: the record as the job codec writes it ({@link
 * JobRecordCodec#write}), beside the columns queries select on. An unfinished job is leased to the
 * instance that saved it; the instance's heartbeat renews the lease, and once it lapses any
 * instance marks the job interrupted (rows locked {@code FOR UPDATE SKIP LOCKED}, so one instance
 * does it once). The instance that lost the lease cannot overwrite that end afterwards.
 *
 * <p>Requests for a job another instance runs go to {@code skillport_job_requests} with a {@code
 * NOTIFY} naming that instance; each instance listens, and polls every {@link #POLL} too, for a
 * notification lost while its listening connection was down.
 *
 * <p>Every change of a record (not a lease renewal) takes the next number of one sequence and
 * notifies {@code skillport_job_changes} (a trigger, migration V3); each instance reads the changes
 * of the jobs other instances run past the last number it saw, on a notification and every poll,
 * and hands them to {@link Requests#changed}.
 *
 * <p>A queued job ({@link #enqueue}) is a pending row without a lease that carries its stored call;
 * any instance claims it ({@link #claim}) in {@link dev.skillport.runtime.jobs.FairOrder}, locking
 * it {@code FOR UPDATE SKIP LOCKED}, and leases it to itself. {@code NOTIFY} on {@value
 * #QUEUE_CHANNEL} wakes idle instances when a job is queued.
 */
final class PostgresJobStore implements JobStore, JobCoordination {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresJobStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String CHANNEL = "skillport_requests";
  static final String CHANGES = "skillport_job_changes";

  /**
   * How far below the highest change number seen the changes are read again: a change numbered
   * before another may commit after it. Changes already delivered are not delivered twice.
   */
  static final long CHANGE_SLACK = 64;

  /** How many jobs' last delivered change numbers are remembered. */
  static final int REMEMBERED = 4096;

  /** The channel on which a queued job wakes the idle instances. */
  static final String QUEUE_CHANNEL = "skillport_queue";

  /** How often requests are looked for without a notification. */
  static final long POLL = 500;

  private final PostgresStore store;

  /** Changes not yet written (the database was unreachable), the newest per id; empty: deleted. */
  private final Map<String, Optional<JobRecord>> held = new ConcurrentHashMap<>();

  private volatile Requests handler;
  private volatile Runnable wake = () -> {};
  private volatile boolean listening;
  // When the listener last took requests and changes (System.nanoTime); the listener's own.
  private long lastTaken;
  private Thread listener;
  // The highest change number seen (-1: not read yet), and the last one delivered per job.
  private long changesSeen = -1;
  private final Map<String, Long> delivered =
      new java.util.LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
          return size() > REMEMBERED;
        }
      };

  PostgresJobStore(PostgresStore store) {
    this.store = store;
  }

  @Override
  public String instance() {
    return store.instance();
  }

  @Override
  public void save(JobRecord job) {
    String doc = encode(job);
    try (Connection c = store.connection()) {
      upsert(c, job, doc);
      held.remove(job.id());
      store.recovered();
    } catch (SQLException e) {
      held.put(job.id(), Optional.of(job));
      store.recordFault(e);
      throw new StoreUnavailableException(fault().orElseThrow());
    }
  }

  private void upsert(Connection c, JobRecord job, String doc) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO skillport_jobs"
                + " (id, owner, status, instance, lease_until, created_at, updated_at, record)"
                + " VALUES (?, ?, ?, ?, CASE WHEN ? THEN now() + make_interval(secs => ?) END,"
                + " ?, ?, ?::jsonb)"
                + " ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner,"
                + " status = EXCLUDED.status, instance = EXCLUDED.instance,"
                + " lease_until = EXCLUDED.lease_until, updated_at = EXCLUDED.updated_at,"
                + " record = EXCLUDED.record"
                // A job whose lease lapsed was ended by another instance: that end stands.
                + " WHERE skillport_jobs.expired_at IS NULL"
                // A leased or queued job is written by the instance that holds it only.
                + " AND (skillport_jobs.instance = EXCLUDED.instance"
                + " OR (skillport_jobs.lease_until IS NULL"
                + " AND skillport_jobs.status <> 'pending'))")) {
      s.setString(1, job.id());
      s.setString(2, job.owner());
      s.setString(3, job.status().wire());
      s.setString(4, store.instance());
      s.setBoolean(5, !job.status().terminal());
      s.setDouble(6, store.lease().toMillis() / 1000.0);
      s.setTimestamp(7, PostgresStore.timestamp(job.createdAt()));
      s.setTimestamp(8, PostgresStore.timestamp(job.updatedAt()));
      s.setString(9, doc);
      s.executeUpdate();
    }
  }

  @Override
  public Optional<JobRecord> find(String id) {
    Optional<JobRecord> mine = held.get(id);
    if (mine != null) {
      return mine;
    }
    try (Connection c = store.connection();
        PreparedStatement s =
            c.prepareStatement("SELECT record::text FROM skillport_jobs WHERE id = ?")) {
      s.setString(1, id);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? decode(id, rs.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public List<JobRecord> all() {
    return select("SELECT id, record::text FROM skillport_jobs", null, true);
  }

  @Override
  public List<JobRecord> orphans() {
    return select(
        "SELECT id, record::text FROM skillport_jobs WHERE instance = ? AND lease_until IS NOT"
            + " NULL",
        store.instance(),
        false);
  }

  private List<JobRecord> select(String sql, String param, boolean withHeld) {
    Map<String, JobRecord> out = new HashMap<>();
    try (Connection c = store.connection();
        PreparedStatement s = c.prepareStatement(sql)) {
      if (param != null) {
        s.setString(1, param);
      }
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          decode(id, rs.getString(2)).ifPresent(r -> out.put(id, r));
        }
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
    if (withHeld) {
      held.forEach((id, r) -> r.ifPresentOrElse(x -> out.put(id, x), () -> out.remove(id)));
    }
    return new ArrayList<>(out.values());
  }

  @Override
  public boolean delete(String id) {
    try (Connection c = store.connection();
        PreparedStatement s = c.prepareStatement("DELETE FROM skillport_jobs WHERE id = ?")) {
      s.setString(1, id);
      boolean removed = s.executeUpdate() > 0;
      Optional<JobRecord> before = held.remove(id);
      return removed || (before != null && before.isPresent());
    } catch (SQLException e) {
      store.recordFault(e);
      Optional<JobRecord> before = held.put(id, Optional.empty());
      return before != null && before.isPresent();
    }
  }

  @Override
  public Optional<JobCoordination> coordination() {
    return Optional.of(this);
  }

  @Override
  public Optional<StoreFault> fault() {
    return store.fault().map(f -> new StoreFault("jobs", f.error(), f.since()));
  }

  /** The pool closes with the {@link PostgresStore}; this store holds nothing of its own. */
  @Override
  public void close() {}

  @Override
  public Optional<IdempotencyKey.Prior> saveNew(JobRecord job, IdempotencyKey key) {
    return insertNew(job, null, key);
  }

  @Override
  public Optional<IdempotencyKey.Prior> enqueue(
      JobRecord job, StoredCall call, IdempotencyKey key) {
    return insertNew(java.util.Objects.requireNonNull(job, "job"), call, key);
  }

  /**
   * Inserts new {@code job}: queued with {@code call} when it is pending (others are this
   * instance's, leased); under {@code key}, in the same statement as the key's row, unless the key
   * names a job already. A key whose job is gone (removed) is taken over.
   */
  private Optional<IdempotencyKey.Prior> insertNew(
      JobRecord job, StoredCall call, IdempotencyKey key) {
    try (Connection c = store.connection()) {
      for (int attempt = 0; ; attempt++) {
        if (insert(c, job, call, key)) {
          store.recovered();
          return Optional.empty();
        }
        Optional<IdempotencyKey.Prior> prior = prior(c, key);
        if (prior.isPresent()) {
          store.recovered();
          return prior;
        }
        if (attempt == 2) {
          throw new IllegalStateException(
              "idempotency key " + key.key() + " names a job that keeps going away");
        }
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  /** The insert; false when {@code key} names a job already (nothing inserted). */
  private boolean insert(Connection c, JobRecord job, StoredCall call, IdempotencyKey key)
      throws SQLException {
    boolean leased = call == null ? !job.status().terminal() : job.status() != JobStatus.PENDING;
    String insertJob =
        "INSERT INTO skillport_jobs (id, owner, status, instance, created_at, updated_at, record,"
            + " call, skill_key, host, queued_at, lease_until) SELECT ?::text, ?::text, ?::text,"
            + " ?::text, ?::timestamptz, ?::timestamptz, ?::jsonb, ?::jsonb, ?::text, ?::text,"
            + " CASE WHEN ?::boolean THEN now() END,"
            + " CASE WHEN ?::boolean THEN now() + make_interval(secs => ?::double precision) END";
    String sql =
        key == null
            ? "WITH added AS (" + insertJob + " RETURNING id)"
            : "WITH k AS (INSERT INTO skillport_idempotency (caller, key, fingerprint, job_id,"
                + " expires_at) VALUES (?, ?, ?, ?, now() + make_interval(secs =>"
                + " ?::double precision)) ON CONFLICT (caller, key) DO UPDATE SET"
                + " fingerprint = EXCLUDED.fingerprint, job_id = EXCLUDED.job_id,"
                + " expires_at = EXCLUDED.expires_at"
                + " WHERE skillport_idempotency.expires_at <= now() RETURNING job_id),"
                + " added AS ("
                + insertJob
                + " FROM k RETURNING id)";
    try (PreparedStatement s =
        c.prepareStatement(
            sql
                + " SELECT id, CASE WHEN ?::boolean THEN pg_notify('"
                + QUEUE_CHANNEL
                + "', id) END FROM added")) {
      int p = 1;
      if (key != null) {
        s.setString(p++, key.scope());
        s.setString(p++, key.key());
        s.setString(p++, key.fingerprint());
        s.setString(p++, job.id());
        s.setDouble(p++, key.window().toMillis() / 1000.0);
      }
      s.setString(p++, job.id());
      s.setString(p++, job.owner());
      s.setString(p++, job.status().wire());
      s.setString(p++, store.instance());
      s.setTimestamp(p++, PostgresStore.timestamp(job.createdAt()));
      s.setTimestamp(p++, PostgresStore.timestamp(job.updatedAt()));
      s.setString(p++, encode(job));
      s.setString(p++, call == null ? null : call.toJson().toString());
      s.setString(p++, call == null ? null : call.skillKey());
      s.setString(p++, call == null ? null : call.host());
      s.setBoolean(p++, call != null);
      s.setBoolean(p++, leased);
      s.setDouble(p++, store.lease().toMillis() / 1000.0);
      // A queued job wakes the idle instances.
      s.setBoolean(p, call != null && !leased);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return false;
        }
      }
      if (call != null && leased) {
        served(c, job.owner());
      }
      return true;
    }
  }

  /**
   * The job {@code key} names, read after an insert it stopped (the racing insert committed, so its
   * job is there); empty, and the key released, when that job is gone.
   */
  private Optional<IdempotencyKey.Prior> prior(Connection c, IdempotencyKey key)
      throws SQLException {
    String jobId;
    String fingerprint;
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT i.job_id, i.fingerprint, EXISTS (SELECT 1 FROM skillport_jobs j"
                + " WHERE j.id = i.job_id) FROM skillport_idempotency i"
                + " WHERE i.caller = ? AND i.key = ?")) {
      s.setString(1, key.scope());
      s.setString(2, key.key());
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        jobId = rs.getString(1);
        fingerprint = rs.getString(2);
        if (rs.getBoolean(3)) {
          return Optional.of(new IdempotencyKey.Prior(jobId, fingerprint));
        }
      }
    }
    try (PreparedStatement d =
        c.prepareStatement(
            "DELETE FROM skillport_idempotency WHERE caller = ? AND key = ? AND job_id = ?")) {
      d.setString(1, key.scope());
      d.setString(2, key.key());
      d.setString(3, jobId);
      d.executeUpdate();
    }
    return Optional.empty();
  }

  @Override
  public Optional<Claimed> claim(Claimant who) {
    try (Connection c = store.connection()) {
      c.setAutoCommit(false);
      try {
        Optional<Claimed> claimed = claim(c, who);
        c.commit();
        return claimed;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  /**
   * The claim in one transaction: the queued job first in fair order (the caller running the fewest
   * jobs of the fleet, then the caller served longest ago, then the oldest job) among those {@code
   * who} can run, locked, and leased to this instance. A job its instance queued and none could
   * claim for a lease is that instance's to run (and fail, if it lacks the host too).
   */
  private Optional<Claimed> claim(Connection c, Claimant who) throws SQLException {
    String id;
    String doc;
    String callDoc;
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT j.id, j.record::text, j.call::text FROM skillport_jobs j"
                + " LEFT JOIN (SELECT coalesce(owner, '') AS caller, count(*) AS n"
                + " FROM skillport_jobs WHERE status = 'running' GROUP BY 1) r"
                + " ON r.caller = coalesce(j.owner, '')"
                + " LEFT JOIN skillport_callers l ON l.caller = coalesce(j.owner, '')"
                + " WHERE j.status = 'pending' AND j.lease_until IS NULL AND j.call IS NOT NULL"
                + " AND ((j.skill_key = ANY (?) AND (j.host IS NULL OR j.host = ANY (?)))"
                + " OR (j.instance = ? AND j.queued_at < now() - make_interval(secs => ?)))"
                + " ORDER BY coalesce(r.n, 0), l.served_at NULLS FIRST, j.created_at, j.id"
                + " LIMIT 1 FOR UPDATE OF j SKIP LOCKED")) {
      s.setArray(1, c.createArrayOf("text", who.skills().toArray()));
      s.setArray(2, c.createArrayOf("text", who.hosts().toArray()));
      s.setString(3, store.instance());
      s.setDouble(4, store.lease().toMillis() / 1000.0);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        id = rs.getString(1);
        doc = rs.getString(2);
        callDoc = rs.getString(3);
      }
    }
    Optional<JobRecord> queued = decode(id, doc);
    StoredCall call;
    try {
      call = StoredCall.fromJson(JSON.readTree(callDoc));
    } catch (IOException | IllegalArgumentException e) {
      call = null;
    }
    if (queued.isEmpty() || call == null) {
      // Damaged: taken out of the queue (it stays readable as it is), not claimed again and again.
      LOG.warn("queued job {} is damaged and is taken out of the queue", id);
      try (PreparedStatement u =
          c.prepareStatement("UPDATE skillport_jobs SET call = NULL WHERE id = ?")) {
        u.setString(1, id);
        u.executeUpdate();
      }
      return Optional.empty();
    }
    JobRecord running = queued.get().claimed(store.clock().instant());
    try (PreparedStatement u =
        c.prepareStatement(
            "UPDATE skillport_jobs SET status = ?, instance = ?,"
                + " lease_until = now() + make_interval(secs => ?), updated_at = ?,"
                + " record = ?::jsonb WHERE id = ?")) {
      u.setString(1, running.status().wire());
      u.setString(2, store.instance());
      u.setDouble(3, store.lease().toMillis() / 1000.0);
      u.setTimestamp(4, PostgresStore.timestamp(running.updatedAt()));
      u.setString(5, encode(running));
      u.setString(6, id);
      u.executeUpdate();
    }
    served(c, running.owner());
    return Optional.of(new Claimed(running, call));
  }

  /** Records that a job of {@code owner} started now, for the round-robin between callers. */
  private static void served(Connection c, String owner) throws SQLException {
    try (PreparedStatement u =
        c.prepareStatement(
            "INSERT INTO skillport_callers (caller, served_at) VALUES (?, clock_timestamp())"
                + " ON CONFLICT (caller) DO UPDATE SET served_at = EXCLUDED.served_at")) {
      u.setString(1, owner == null ? "" : owner);
      u.executeUpdate();
    }
  }

  @Override
  public Optional<JobRecord> endQueued(String id, UnaryOperator<JobRecord> end) {
    try (Connection c = store.connection()) {
      c.setAutoCommit(false);
      try {
        Optional<JobRecord> ended = Optional.empty();
        // Not SKIP LOCKED: a claim under way is waited for, and the row then reads claimed.
        try (PreparedStatement s =
            c.prepareStatement(
                "SELECT record::text FROM skillport_jobs WHERE id = ? AND status = 'pending'"
                    + " AND lease_until IS NULL AND call IS NOT NULL FOR UPDATE")) {
          s.setString(1, id);
          try (ResultSet rs = s.executeQuery()) {
            if (rs.next()) {
              ended = decode(id, rs.getString(1)).map(end);
            }
          }
        }
        if (ended.isPresent()) {
          try (PreparedStatement u =
              c.prepareStatement(
                  "UPDATE skillport_jobs SET status = ?, updated_at = ?, record = ?::jsonb"
                      + " WHERE id = ?")) {
            u.setString(1, ended.get().status().wire());
            u.setTimestamp(2, PostgresStore.timestamp(ended.get().updatedAt()));
            u.setString(3, encode(ended.get()));
            u.setString(4, id);
            u.executeUpdate();
          }
        }
        c.commit();
        return ended;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public void onQueued(Runnable wake) {
    this.wake = java.util.Objects.requireNonNull(wake, "wake");
  }

  @Override
  public boolean requestCancel(String id) {
    return request(id, "cancel", null);
  }

  @Override
  public boolean requestAnswer(String id, JsonNode answers) {
    return request(id, "answer", answers.toString());
  }

  private boolean request(String id, String kind, String payload) {
    try (Connection c = store.connection();
        PreparedStatement s =
            c.prepareStatement(
                "WITH target AS (SELECT instance FROM skillport_jobs"
                    + " WHERE id = ? AND instance <> ? AND lease_until > now()),"
                    + " added AS (INSERT INTO skillport_job_requests (job_id, instance, kind,"
                    + " payload) SELECT ?, instance, ?, ?::jsonb FROM target RETURNING instance)"
                    + " SELECT pg_notify('"
                    + CHANNEL
                    + "', instance) FROM added")) {
      s.setString(1, id);
      s.setString(2, store.instance());
      s.setString(3, id);
      s.setString(4, kind);
      s.setString(5, payload);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    } catch (SQLException e) {
      throw store.failed(e);
    }
  }

  @Override
  public void serve(Requests handler) {
    if (this.handler != null) {
      throw new IllegalStateException("requests are served already");
    }
    this.handler = handler;
  }

  /** Starts the thread that listens for requests addressed to this instance. */
  synchronized void startListening() {
    listening = true;
    listener = new Thread(this::listen, "store-requests");
    listener.setDaemon(true);
    listener.start();
  }

  synchronized void stopListening() {
    listening = false;
    if (listener != null) {
      listener.interrupt();
      try {
        listener.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits for notifications on a connection of its own; takes requests on one, or every poll. */
  private void listen() {
    Connection c = null;
    while (listening) {
      try {
        if (c == null) {
          c = store.connection();
          try (Statement s = c.createStatement()) {
            s.execute("LISTEN " + CHANNEL);
            s.execute("LISTEN " + CHANGES);
            s.execute("LISTEN " + QUEUE_CHANNEL);
          }
        }
        PGNotification[] got = c.unwrap(PGConnection.class).getNotifications((int) POLL);
        if (Thread.interrupted() || !listening) {
          break;
        }
        if (got != null && got.length > 0) {
          LOG.trace("{} store notifications", got.length);
          for (PGNotification n : got) {
            if (QUEUE_CHANNEL.equals(n.getName())) {
              wake.run();
              break;
            }
          }
        }
        // A batch that only tells of this instance's own changes holds nothing to take (this
        // instance made them); the requests and other instances' changes are still read once a
        // poll's time has passed, so a stream of its own changes cannot hold them back.
        long now = System.nanoTime();
        if (!ownChangesOnly(got) || now - lastTaken >= TimeUnit.MILLISECONDS.toNanos(POLL)) {
          lastTaken = now;
          takeRequests();
          takeChanges();
        }
      } catch (SQLException e) {
        store.recordFault(e);
        close(c);
        c = null;
        pause();
      } catch (RuntimeException e) {
        LOG.warn("store requests not taken: {}", e.toString());
        pause();
      }
    }
    close(c);
  }

  /** Whether {@code got} holds notifications, each of a change to a job of this instance. */
  private boolean ownChangesOnly(PGNotification[] got) {
    if (got == null || got.length == 0) {
      return false;
    }
    for (PGNotification n : got) {
      if (!CHANGES.equals(n.getName()) || !store.instance().equals(n.getParameter())) {
        return false;
      }
    }
    return true;
  }

  /** Hands every request addressed to this instance to the handler, oldest first. */
  void takeRequests() throws SQLException {
    Requests to = handler;
    if (to == null) {
      return;
    }
    record Taken(long seq, String jobId, String kind, String payload) {}
    List<Taken> taken = new ArrayList<>();
    try (Connection c = store.connection();
        PreparedStatement s =
            c.prepareStatement(
                "DELETE FROM skillport_job_requests WHERE seq IN (SELECT seq FROM"
                    + " skillport_job_requests WHERE instance = ? ORDER BY seq LIMIT 100 FOR"
                    + " UPDATE SKIP LOCKED) RETURNING seq, job_id, kind, payload::text")) {
      s.setString(1, store.instance());
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          taken.add(new Taken(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)));
        }
      }
    }
    taken.sort(Comparator.comparingLong(Taken::seq));
    for (Taken t : taken) {
      try {
        if (t.kind().equals("cancel")) {
          to.cancel(t.jobId());
        } else {
          to.answer(t.jobId(), JSON.readTree(t.payload()));
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("request {} for job {} failed: {}", t.kind(), t.jobId(), e.toString());
      }
    }
  }

  /**
   * Hands the handler the records of the jobs other instances run (or ended for this one) that
   * changed since the last call, each change once; the first call only notes where the changes
   * stand.
   */
  void takeChanges() throws SQLException {
    Requests to = handler;
    if (to == null) {
      return;
    }
    List<String> ids = new ArrayList<>();
    try (Connection c = store.connection()) {
      if (changesSeen < 0) {
        try (PreparedStatement s =
                c.prepareStatement("SELECT coalesce(max(change_seq), 0) FROM skillport_jobs");
            ResultSet rs = s.executeQuery()) {
          rs.next();
          changesSeen = rs.getLong(1);
        }
        return;
      }
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT id, change_seq FROM skillport_jobs WHERE change_seq > ?"
                  + " AND (instance <> ? OR expired_at IS NOT NULL) ORDER BY change_seq")) {
        s.setLong(1, changesSeen - CHANGE_SLACK);
        s.setString(2, store.instance());
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            String id = rs.getString(1);
            long seq = rs.getLong(2);
            changesSeen = Math.max(changesSeen, seq);
            Long before = delivered.get(id);
            if (before == null || before < seq) {
              ids.add(id);
            }
          }
        }
      }
      if (ids.isEmpty()) {
        return;
      }
      record Changed(JobRecord job, long seq) {}
      List<Changed> changed = new ArrayList<>();
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT id, record::text, change_seq FROM skillport_jobs WHERE id = ANY(?)"
                  + " ORDER BY change_seq")) {
        s.setArray(1, c.createArrayOf("text", ids.toArray()));
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            long seq = rs.getLong(3);
            String id = rs.getString(1);
            decode(id, rs.getString(2)).ifPresent(r -> changed.add(new Changed(r, seq)));
          }
        }
      }
      for (Changed ch : changed) {
        delivered.put(ch.job().id(), Math.max(ch.seq(), delivered.getOrDefault(ch.job().id(), 0L)));
        try {
          to.changed(ch.job());
        } catch (RuntimeException e) {
          LOG.warn("change of job {} not delivered: {}", ch.job().id(), e.toString());
        }
      }
    }
  }

  @Override
  public Map<String, Map<JobStatus, Integer>> activeByInstance() {
    Map<String, Map<JobStatus, Integer>> out = new TreeMap<>();
    try (Connection c = store.connection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT instance, status, count(*) FROM skillport_jobs"
                    + " WHERE lease_until IS NOT NULL GROUP BY instance, status");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        String instance = rs.getString(1);
        Optional<JobStatus> status = JobStatus.fromWire(rs.getString(2));
        int count = rs.getInt(3);
        status.ifPresent(
            st ->
                out.computeIfAbsent(instance, k -> new EnumMap<>(JobStatus.class)).put(st, count));
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
    return out;
  }

  /** Renews the leases of this instance's unfinished jobs and its heartbeat. */
  void renewLeases() throws SQLException {
    try (Connection c = store.connection();
        PreparedStatement jobs =
            c.prepareStatement(
                "UPDATE skillport_jobs SET lease_until = now() + make_interval(secs => ?)"
                    + " WHERE instance = ? AND lease_until IS NOT NULL");
        PreparedStatement beat =
            c.prepareStatement(
                "UPDATE skillport_instances SET heartbeat_at = now() WHERE id = ?")) {
      jobs.setDouble(1, store.lease().toMillis() / 1000.0);
      jobs.setString(2, store.instance());
      jobs.executeUpdate();
      beat.setString(1, store.instance());
      beat.executeUpdate();
    }
  }

  /**
   * Marks interrupted the unfinished jobs whose lease lapsed (their instance stopped renewing it);
   * returns how many.
   */
  int expireLeases() throws SQLException {
    int ended = 0;
    int requeued = 0;
    try (Connection c = store.connection()) {
      c.setAutoCommit(false);
      try {
        List<JobRecord> lapsed = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        List<JobRecord> again = new ArrayList<>();
        Instant now = store.clock().instant();
        try (PreparedStatement s =
            c.prepareStatement(
                "SELECT id, record::text, instance, coalesce((call->>'idempotent')::boolean,"
                    + " false) FROM skillport_jobs WHERE lease_until < now()"
                    + " ORDER BY lease_until LIMIT 100 FOR UPDATE SKIP LOCKED")) {
          try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
              Optional<JobRecord> r = decode(rs.getString(1), rs.getString(2));
              if (r.isPresent() && rs.getBoolean(4) && !r.get().status().terminal()) {
                // An idempotent tool's job is queued again, for any instance to run from the start.
                again.add(
                    r.get()
                        .requeued(
                            now,
                            "queued again: instance "
                                + rs.getString(3)
                                + " stopped while it ran (its lease expired)"));
              } else if (r.isPresent()) {
                lapsed.add(r.get());
                owners.add(rs.getString(3));
              }
            }
          }
        }
        try (PreparedStatement u =
            c.prepareStatement(
                "UPDATE skillport_jobs SET status = ?, record = ?::jsonb, lease_until = NULL,"
                    + " instance = ?, updated_at = ?, queued_at = now() WHERE id = ?")) {
          for (JobRecord r : again) {
            u.setString(1, r.status().wire());
            u.setString(2, encode(r));
            // No longer the stopped instance's: only a claim writes it now.
            u.setString(3, store.instance());
            u.setTimestamp(4, PostgresStore.timestamp(now));
            u.setString(5, r.id());
            u.addBatch();
          }
          u.executeBatch();
        }
        requeued = again.size();
        try (PreparedStatement u =
            c.prepareStatement(
                "UPDATE skillport_jobs SET status = ?, record = ?::jsonb, lease_until = NULL,"
                    + " expired_at = now(), updated_at = ? WHERE id = ?")) {
          for (int i = 0; i < lapsed.size(); i++) {
            JobRecord end =
                lapsed
                    .get(i)
                    .orphaned(
                        now,
                        "instance "
                            + owners.get(i)
                            + " stopped while the job was "
                            + lapsed.get(i).status().wire()
                            + " (its lease expired)");
            u.setString(1, end.status().wire());
            u.setString(2, encode(end));
            u.setTimestamp(3, PostgresStore.timestamp(now));
            u.setString(4, end.id());
            u.addBatch();
          }
          u.executeBatch();
        }
        c.commit();
        ended = lapsed.size();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
    if (ended > 0) {
      LOG.info("{} jobs of stopped instances are marked interrupted (lease expired)", ended);
    }
    if (requeued > 0) {
      LOG.info("{} jobs of idempotent tools of stopped instances are queued again", requeued);
      wake.run();
    }
    return ended;
  }

  /** Writes the changes held while the database was unreachable. */
  void writeHeld() throws SQLException {
    if (held.isEmpty()) {
      return;
    }
    try (Connection c = store.connection()) {
      for (Map.Entry<String, Optional<JobRecord>> e : Map.copyOf(held).entrySet()) {
        if (e.getValue().isPresent()) {
          upsert(c, e.getValue().get(), encode(e.getValue().get()));
        } else {
          try (PreparedStatement s =
              c.prepareStatement("DELETE FROM skillport_jobs WHERE id = ?")) {
            s.setString(1, e.getKey());
            s.executeUpdate();
          }
        }
        held.remove(e.getKey(), e.getValue());
      }
    }
    LOG.info("the job changes held while the store was unreachable are written");
  }

  private StoreUnavailableException unavailable(SQLException e) {
    store.recordFault(e);
    return new StoreUnavailableException(fault().orElseThrow());
  }

  private static String encode(JobRecord job) {
    try {
      return JSON.writeValueAsString(JobRecordCodec.write(job));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("job " + job.id() + " cannot be written", e);
    }
  }

  private static Optional<JobRecord> decode(String id, String doc) {
    try {
      return Optional.of(JobRecordCodec.read(JSON.readTree(doc)));
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("job record {} is damaged and is skipped: {}", id, e.getMessage());
      return Optional.empty();
    }
  }

  private static void close(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        LOG.debug("listening connection not closed cleanly: {}", e.toString());
      }
    }
  }

  private void pause() {
    try {
      Thread.sleep(POLL);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      listening = false;
    }
  }
}
