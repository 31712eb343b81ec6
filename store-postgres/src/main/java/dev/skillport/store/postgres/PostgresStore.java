package dev.skillport.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.skillport.runtime.AuditTrail;
import dev.skillport.runtime.jobs.JobStore;
import dev.skillport.runtime.jobs.StoreFault;
import dev.skillport.workflows.WorkflowStore;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fleet's shared store in one PostgreSQL database: {@link #jobs()}, {@link #workflows()} and the
 * audit trail ({@link #audit()}) over one connection pool (HikariCP), the schema migrated by {@link
 * Schema} when it opens. An open store renews this instance's leases every third of the lease,
 * marks interrupted the jobs of instances whose leases expired, and delivers requests other
 * instances hand to this one.
 */
public final class PostgresStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStore.class);

  /** How long a job stays leased to its instance without a heartbeat (default). */
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);

  private final HikariDataSource pool;
  private final PostgresLocation location;
  private final String instance;
  private final Duration lease;
  private final Clock clock;
  private final ScheduledExecutorService heartbeat;
  private final PostgresJobStore jobs;
  private final PostgresWorkflowStore workflows;
  private final PostgresAuditTrail audit;
  private volatile StoreFault fault;
  private volatile Retention retention;

  /**
   * When this instance may next judge other instances' leases ({@link System#nanoTime()}): a lease
   * after it reached the database again, since the others could not renew theirs either while it
   * was unreachable and need a heartbeat to catch up.
   */
  private volatile long judgeLeasesFrom = System.nanoTime();

  private PostgresStore(
      HikariDataSource pool,
      PostgresLocation location,
      String instance,
      Duration lease,
      Clock clock) {
    this.pool = pool;
    this.location = location;
    this.instance = instance;
    this.lease = lease;
    this.clock = clock;
    this.heartbeat =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "store-heartbeat");
              t.setDaemon(true);
              return t;
            });
    this.jobs = new PostgresJobStore(this);
    this.workflows = new PostgresWorkflowStore(this);
    this.audit = new PostgresAuditTrail(this);
  }

  /**
   * Opens the store at {@code location} for instance {@code instance}: migrates the schema, records
   * the instance and starts its heartbeat.
   *
   * @param lease how long this instance's jobs stay its own without a heartbeat
   * @throws StoreOpenException when the database cannot be reached, the password cannot be read, or
   *     the schema is newer than this build
   */
  public static PostgresStore open(
      PostgresLocation location, String instance, Duration lease, Map<String, String> environment) {
    return open(location, instance, lease, environment, Clock.systemUTC());
  }

  static PostgresStore open(
      PostgresLocation location,
      String instance,
      Duration lease,
      Map<String, String> environment,
      Clock clock) {
    Objects.requireNonNull(instance, "instance");
    if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("the lease must be at least 1 s");
    }
    HikariDataSource pool = pool(location, environment);
    try {
      Schema.migrate(pool, location);
      PostgresStore store = new PostgresStore(pool, location, instance, lease, clock);
      store.register();
      store.start();
      return store;
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /** Opens a pool of at most {@code size} connections, failing at once when none can be made. */
  static HikariDataSource pool(PostgresLocation location, Map<String, String> environment) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(location.jdbcUrl());
    if (location.user() != null) {
      config.setUsername(location.user());
    }
    try {
      location.password(environment).ifPresent(config::setPassword);
    } catch (IOException e) {
      throw new StoreOpenException(
          "cannot read the store's password file " + location.passwordFile() + ": " + e, e);
    }
    config.setPoolName("skillport-store");
    // Requests are short: a handful of connections serve a worker pool and the web handlers.
    config.setMaximumPoolSize(8);
    config.setConnectionTimeout(5_000);
    config.setValidationTimeout(2_000);
    Properties driver = new Properties();
    driver.setProperty("ApplicationName", "skillport");
    driver.setProperty("connectTimeout", "5");
    driver.setProperty("socketTimeout", "30");
    config.setDataSourceProperties(driver);
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new StoreOpenException(
          "cannot connect to the store " + location + ": " + rootMessage(e), e);
    }
  }

  /** The job store over this database. */
  public JobStore jobs() {
    return jobs;
  }

  /** The workflow store over this database. */
  public WorkflowStore workflows() {
    return workflows;
  }

  /** The fleet's audit trail in this database. */
  public AuditTrail audit() {
    return audit;
  }

  /** This instance's id. */
  public String instance() {
    return instance;
  }

  /** Why the database cannot be used now (the last failed statement); empty while it can. */
  public Optional<StoreFault> fault() {
    return Optional.ofNullable(fault);
  }

  /**
   * Checks that every instance on this store signs client state with the same key: the first
   * instance records {@code keyId}; a later one with another id is refused.
   *
   * @throws StateKeyMismatchException when the store holds another key id
   */
  public void agreeOnStateKey(String keyId) {
    try (Connection c = connection()) {
      try (PreparedStatement insert =
          c.prepareStatement(
              "INSERT INTO skillport_fleet (state_key_id, set_by, set_at) VALUES (?, ?, now())"
                  + " ON CONFLICT (one) DO NOTHING")) {
        insert.setString(1, keyId);
        insert.setString(2, instance);
        insert.executeUpdate();
      }
      try (PreparedStatement select =
              c.prepareStatement("SELECT state_key_id, set_by FROM skillport_fleet");
          ResultSet rs = select.executeQuery()) {
        rs.next();
        String held = rs.getString(1);
        if (!held.equals(keyId)) {
          throw new StateKeyMismatchException(keyId, held, rs.getString(2));
        }
      }
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /**
   * Starts removing, every {@link Retention#EVERY} off the request path, the audit rows older than
   * {@code audit} (null: kept) and the idempotency keys past their window. Called once.
   */
  public synchronized void retain(Duration audit) {
    if (retention != null) {
      throw new IllegalStateException("retention runs already");
    }
    if (audit != null && (audit.isNegative() || audit.isZero())) {
      throw new IllegalArgumentException("the audit retention must be positive");
    }
    retention = new Retention(this, audit);
    retention.start();
  }

  /** Runs one retention sweep now ({@link #retain} must have been called); for tests and tools. */
  Retention.Swept sweepNow() throws SQLException, InterruptedException {
    return retention.sweep();
  }

  /** Stops the heartbeat and the request listener and closes the pool. */
  @Override
  public void close() {
    Retention sweeping = retention;
    if (sweeping != null) {
      sweeping.close();
    }
    heartbeat.shutdownNow();
    jobs.stopListening();
    audit.close(2_000);
    try {
      heartbeat.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    pool.close();
  }

  Duration lease() {
    return lease;
  }

  Clock clock() {
    return clock;
  }

  /** A pooled connection; a failure is recorded as the store's fault. */
  Connection connection() throws SQLException {
    try {
      return pool.getConnection();
    } catch (SQLException e) {
      throw recordFault(e);
    }
  }

  /** Records {@code e} as the store's fault and returns it. */
  SQLException recordFault(SQLException e) {
    StoreFault now = new StoreFault("store", rootMessage(e), clock.instant());
    StoreFault before = fault;
    if (before == null) {
      LOG.warn("the store {} cannot be used: {}", location, now.error());
    }
    fault = before == null ? now : new StoreFault("store", now.error(), before.since());
    return e;
  }

  /** A statement succeeded: the database is reachable again. */
  void recovered() {
    if (fault != null) {
      LOG.info("the store {} is reachable again", location);
      judgeLeasesFrom = System.nanoTime() + lease.toNanos();
      fault = null;
    }
  }

  /** An unexpected failure as a runtime exception, recorded as the fault. */
  RuntimeException failed(SQLException e) {
    recordFault(e);
    return new StoreAccessException("the store " + location + " failed: " + rootMessage(e), e);
  }

  static Timestamp timestamp(java.time.Instant at) {
    return Timestamp.from(at);
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  private void register() {
    try (Connection c = connection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO skillport_instances (id, started_at, heartbeat_at)"
                    + " VALUES (?, now(), now()) ON CONFLICT (id)"
                    + " DO UPDATE SET started_at = now(), heartbeat_at = now()")) {
      s.setString(1, instance);
      s.executeUpdate();
    } catch (SQLException e) {
      throw new StoreOpenException(
          "cannot register instance " + instance + " in the store: " + rootMessage(e), e);
    }
  }

  private void start() {
    long every = Math.max(200, lease.toMillis() / 3);
    heartbeat.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    jobs.startListening();
    audit.start();
  }

  /** Renews this instance's leases and ends the jobs of instances whose leases expired. */
  private void beat() {
    try {
      jobs.renewLeases();
      // After an outage every instance's leases may have lapsed, the live ones' too: those are
      // judged once the live instances had a lease's time to renew theirs.
      if (fault == null && System.nanoTime() - judgeLeasesFrom >= 0) {
        jobs.expireLeases();
      }
      jobs.writeHeld();
      recovered();
    } catch (SQLException e) {
      recordFault(e);
    } catch (RuntimeException e) {
      LOG.warn("store heartbeat failed: {}", e.toString());
    }
  }
}
