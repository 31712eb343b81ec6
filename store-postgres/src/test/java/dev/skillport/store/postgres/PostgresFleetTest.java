package dev.skillport.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.ClientRequest;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.runtime.jobs.Claimant;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobResult;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.runtime.jobs.StoredCall;
import dev.skillport.runtime.jobs.StoredCallRunner;
import dev.skillport.testsupport.PostgresCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Several instances on one real PostgreSQL: leases, requests between them, the fleet's key. */
class PostgresFleetTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Duration LEASE = Duration.ofSeconds(1);
  private static PostgresCluster cluster;

  private final TestDatabase.Fleet fleet = new TestDatabase.Fleet(LEASE);

  @BeforeAll
  static void startCluster() {
    cluster = TestDatabase.cluster();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @AfterEach
  void closeAll() throws Exception {
    fleet.close();
  }

  /** A job that runs until cancelled, counting its runs. */
  private static JobRecord submitWaiting(JobScheduler on, AtomicInteger runs) {
    return on.submit(
        "slow",
        null,
        null,
        "alice",
        null,
        ctx -> {
          runs.incrementAndGet();
          while (!ctx.isCancelled()) {
            try {
              Thread.sleep(10);
            } catch (InterruptedException e) {
              break;
            }
          }
          return JobResult.of(ToolResult.text(""));
        },
        status -> {});
  }

  @Test
  void cancel_throughAnotherInstance_reachesTheRunnerWithinASecond() {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    AtomicInteger runs = new AtomicInteger();
    JobRecord job = submitWaiting(a, runs);
    await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() == 1);
    assertThat(b.status(job.id())).get().extracting(JobRecord::owner).isEqualTo("alice");

    long asked = System.nanoTime();
    assertThat(b.cancel(job.id())).isTrue();
    await()
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> b.status(job.id()).orElseThrow().status() == JobStatus.CANCELLED);
    assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(1));
    assertThat(runs).hasValue(1);
  }

  @Test
  void answer_throughAnotherInstance_completesTheWaitingJob() {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    JobRecord job =
        a.submit(
            "ask",
            null,
            null,
            "alice",
            capability -> true,
            ctx -> {
              try {
                Map<String, JsonNode> got =
                    ctx.requestAll(
                        Map.of("q1", new ClientRequest("elicitation/create", NODES.objectNode())));
                return JobResult.of(
                    ToolResult.structured(NODES.objectNode().set("answer", got.get("q1"))));
              } catch (Exception e) {
                return JobResult.of(ToolResult.error(e.toString()));
              }
            },
            status -> {});
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> b.status(job.id()).orElseThrow().inputRequests() != null);

    assertThat(b.answer(job.id(), NODES.objectNode().put("q1", "yes"))).isTrue();
    await()
        .atMost(Duration.ofSeconds(2))
        .until(() -> b.status(job.id()).orElseThrow().status() == JobStatus.COMPLETED);
    assertThat(
            b.status(job.id()).orElseThrow().result().result().structured().get("answer").asText())
        .isEqualTo("yes");
  }

  @Test
  void instanceGone_itsJobsBecomeInterruptedOnceTheLeaseExpires_andItCannotOverwrite() {
    PostgresLocation at = TestDatabase.fresh(cluster);
    PostgresStore a = TestDatabase.open(at, "a", LEASE);
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    JobRecord running =
        new JobRecord(
            "j1",
            "slow",
            null,
            null,
            JobStatus.RUNNING,
            java.time.Instant.now(),
            java.time.Instant.now(),
            null,
            null,
            null,
            null,
            null,
            "alice",
            null);
    a.jobs().save(running);
    // A stops renewing (as a killed process would) without ending its jobs.
    a.close();

    await()
        .atMost(LEASE.plusSeconds(2))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> b.status("j1").orElseThrow().status() == JobStatus.INTERRUPTED);
    assertThat(b.status("j1").orElseThrow().error()).contains("instance a").contains("lease");
    assertThat(b.cancel("j1")).isFalse();

    PostgresStore late = fleet.open(at, "a");
    late.jobs()
        .save(
            new JobRecord(
                "j1",
                "slow",
                null,
                null,
                JobStatus.COMPLETED,
                running.createdAt(),
                running.startedAt(),
                java.time.Instant.now(),
                null,
                null,
                null,
                JobResult.of(ToolResult.text("")),
                "alice",
                null));
    assertThat(b.status("j1").orElseThrow().status()).isEqualTo(JobStatus.INTERRUPTED);
  }

  @Test
  void stateKey_secondInstanceWithAnotherKey_isRefusedNamingBothIds() {
    PostgresLocation at = TestDatabase.fresh(cluster);
    fleet.open(at, "a").agreeOnStateKey("key-1111");
    fleet.open(at, "b").agreeOnStateKey("key-1111");
    assertThatThrownBy(() -> fleet.open(at, "c").agreeOnStateKey("key-2222"))
        .isInstanceOf(StateKeyMismatchException.class)
        .hasMessageContaining("key-2222")
        .hasMessageContaining("key-1111")
        .hasMessageContaining("instance a");
  }

  @Test
  void open_schemaNewerThanThisBuild_isRefusedWithTheVersions() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    fleet.open(at, "a").close();
    Properties login = new Properties();
    login.setProperty("user", PostgresCluster.USER);
    login.setProperty("password", cluster.password());
    try (Connection c = DriverManager.getConnection(at.jdbcUrl(), login);
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO skillport_schema_history (installed_rank, version, description, type,"
              + " script, checksum, installed_by, execution_time, success) VALUES (99, '99',"
              + " 'from the future', 'SQL', 'V99__from_the_future.sql', 0, 'x', 0, true)");
    }
    assertThatThrownBy(() -> fleet.open(at, "a"))
        .isInstanceOf(StoreOpenException.class)
        .hasMessageContaining("schema version 99")
        .hasMessageContaining("newer than this Skillport knows (" + latestMigration() + ")");
  }

  /** The highest version among this build's migrations (V<n>__*.sql). */
  private static int latestMigration() throws Exception {
    try (var files =
        java.nio.file.Files.list(java.nio.file.Path.of("src/main/resources/db/skillport"))) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.matches("V\\d+__.*\\.sql"))
          .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__"))))
          .max()
          .orElseThrow();
    }
  }

  @Test
  void open_wrongPassword_failsWithoutShowingIt() {
    PostgresLocation at =
        PostgresLocation.parse(cluster.url("postgres") + "?user=" + PostgresCluster.USER, Map.of());
    assertThatThrownBy(
            () -> PostgresStore.open(at, "a", LEASE, Map.of("PGPASSWORD", "not-the-secret-42")))
        .isInstanceOf(StoreOpenException.class)
        .hasMessageContaining("password authentication failed")
        .hasMessageNotContaining("not-the-secret-42");
  }

  @Test
  void open_passwordFromPgpasswordVariable_connects() {
    PostgresLocation at =
        PostgresLocation.parse(cluster.url("postgres") + "?user=" + PostgresCluster.USER, Map.of());
    PostgresStore s = PostgresStore.open(at, "a", LEASE, Map.of("PGPASSWORD", cluster.password()));
    fleet.add(s);
    assertThat(s.fault()).isEmpty();
  }

  @Test
  void databaseStopped_faultReportedAndHeldSaveWrittenOnceItIsBack() {
    PostgresLocation at = TestDatabase.fresh(cluster);
    PostgresStore a = fleet.open(at, "a");
    JobRecord done =
        new JobRecord(
            "held",
            "t",
            null,
            null,
            JobStatus.COMPLETED,
            java.time.Instant.now(),
            null,
            java.time.Instant.now(),
            null,
            null,
            null,
            JobResult.of(ToolResult.text("")),
            "alice",
            null);
    cluster.stop();
    try {
      // The pool waits up to its 5 s connection timeout before a heartbeat fails.
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> a.fault().isPresent());
      assertThatThrownBy(() -> a.jobs().save(done))
          .isInstanceOf(dev.skillport.runtime.jobs.StoreUnavailableException.class);
      assertThat(a.jobs().find("held")).contains(done);
    } finally {
      cluster.startAgain();
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> a.fault().isEmpty());
    PostgresStore b = fleet.open(at, "b");
    await().atMost(Duration.ofSeconds(5)).until(() -> b.jobs().find("held").isPresent());
    assertThat(b.jobs().find("held")).contains(done);
  }

  @Test
  void databaseDownLongerThanTheLease_liveInstancesKeepTheirJobs() {
    PostgresLocation at = TestDatabase.fresh(cluster);
    PostgresStore storeA = fleet.open(at, "a");
    PostgresStore storeB = fleet.open(at, "b");
    JobScheduler a = fleet.scheduler(storeA);
    JobScheduler b = fleet.scheduler(storeB);
    AtomicInteger runs = new AtomicInteger();
    JobRecord job = submitWaiting(a, runs);
    await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() == 1);
    cluster.stop();
    try {
      // Both see the outage, which lasts longer than the lease (1 s) since the pool waits 5 s.
      await()
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> storeA.fault().isPresent() && storeB.fault().isPresent());
    } finally {
      cluster.startAgain();
    }
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> storeA.fault().isEmpty() && storeB.fault().isEmpty());
    // Two leases after both are back: A, alive, renewed; its job was not ended by B.
    long until = System.nanoTime() + 2 * LEASE.toNanos();
    while (System.nanoTime() < until) {
      assertThat(b.status(job.id()).orElseThrow().status())
          .as("A's job read through B")
          .isEqualTo(JobStatus.RUNNING);
      sleepQuietly(50);
    }
    assertThat(runs).hasValue(1);
    assertThat(b.cancel(job.id())).isTrue();
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Runs stored calls of skill {@code demo} as a script would, recording who ran what. */
  private static StoredCallRunner runner(
      String instance, Set<String> hosts, Map<String, String> ranBy, AtomicInteger runs) {
    return new StoredCallRunner() {
      @Override
      public Claimant claimant() {
        return new Claimant(Set.of(StoredCall.key("demo", "sha256:1")), hosts);
      }

      @Override
      public JobResult run(StoredCall call, String owner, ToolContext context) {
        runs.incrementAndGet();
        String n = call.arguments().path("n").asText();
        if (ranBy.putIfAbsent(n, instance) != null) {
          return JobResult.of(ToolResult.error("job " + n + " ran twice"));
        }
        try {
          Thread.sleep(call.arguments().path("ms").asLong(0));
        } catch (InterruptedException e) {
          return JobResult.of(ToolResult.error("interrupted"));
        }
        return JobResult.of(
            ToolResult.structured(
                NODES
                    .objectNode()
                    .put("by", instance)
                    .put("owner", owner)
                    .put("principal", context.principal().name())));
      }
    };
  }

  private static StoredCall call(int n, long ms, String host) {
    return new StoredCall(
        "demo",
        "work",
        NODES.objectNode().put("n", n).put("ms", ms),
        "sha256:1",
        host,
        false,
        null,
        List.of());
  }

  /** Queues {@code call} on {@code on}, whose own work is {@code here}'s run of it. */
  private static JobRecord queue(
      JobScheduler on, String owner, StoredCall call, StoredCallRunner here) {
    return on.submit(
        "demo.work",
        null,
        null,
        owner,
        null,
        call,
        ctx -> here.run(call, owner, ctx),
        status -> {});
  }

  /** The instance the store records for job {@code id}. */
  private static String recordedInstance(PostgresLocation at, String id) throws Exception {
    Properties login = new Properties();
    login.setProperty("user", PostgresCluster.USER);
    login.setProperty("password", cluster.password());
    try (Connection c = DriverManager.getConnection(at.jdbcUrl(), login);
        PreparedStatement s =
            c.prepareStatement("SELECT instance FROM skillport_jobs WHERE id = ?")) {
      s.setString(1, id);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  @Test
  void queuedJob_anotherInstanceRunsItFromItsStoredCall_asItsOwner() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    Map<String, String> ranBy = new ConcurrentHashMap<>();
    AtomicInteger runs = new AtomicInteger();
    // A queues in the store but serves no skill a call could name; B serves demo.
    StoredCallRunner none =
        new StoredCallRunner() {
          @Override
          public Claimant claimant() {
            return new Claimant(Set.of(), Set.of());
          }

          @Override
          public JobResult run(StoredCall call, String owner, ToolContext context) {
            return JobResult.of(ToolResult.error("a serves no skill"));
          }
        };
    a.runStoredCalls(none);
    b.runStoredCalls(runner("b", Set.of(), ranBy, runs));

    JobRecord job = queue(a, "alice", call(1, 0, null), none);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> a.status(job.id()).orElseThrow().status() == JobStatus.COMPLETED);
    JsonNode out = a.status(job.id()).orElseThrow().result().result().structured();
    assertThat(out.path("by").asText()).isEqualTo("b");
    assertThat(out.path("owner").asText()).isEqualTo("alice");
    assertThat(out.path("principal").asText()).isEqualTo("alice");
    assertThat(recordedInstance(at, job.id())).isEqualTo("b");
  }

  @Test
  void queuedJobs_twoInstancesClaimThem_eachRunsOnceAndBothWork() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    Map<String, String> ranBy = new ConcurrentHashMap<>();
    AtomicInteger runs = new AtomicInteger();
    StoredCallRunner onA = runner("a", Set.of(), ranBy, runs);
    a.runStoredCalls(onA);
    b.runStoredCalls(runner("b", Set.of(), ranBy, runs));

    List<JobRecord> jobs = new CopyOnWriteArrayList<>();
    for (int n = 0; n < 40; n++) {
      jobs.add(queue(a, n % 2 == 0 ? "alice" : "bob", call(n, 50, null), onA));
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> jobs.stream().allMatch(j -> a.status(j.id()).orElseThrow().status().terminal()));
    assertThat(jobs).allMatch(j -> a.status(j.id()).orElseThrow().status() == JobStatus.COMPLETED);
    assertThat(runs).hasValue(40);
    assertThat(ranBy).hasSize(40);
    // A's two workers were busy with jobs A queued: B's took the others.
    assertThat(ranBy.values()).contains("a", "b");
  }

  @Test
  void queuedJob_needingAHost_isClaimedOnlyByAnInstanceWithIt() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    // A long lease: the instance that queued it runs a job no other could claim only after one.
    Duration lease = Duration.ofSeconds(60);
    PostgresStore plainStore = TestDatabase.open(at, "plain", lease);
    fleet.add(plainStore);
    JobScheduler plain = fleet.scheduler(plainStore);
    Map<String, String> ranBy = new ConcurrentHashMap<>();
    AtomicInteger runs = new AtomicInteger();
    StoredCallRunner onPlain = runner("plain", Set.of(), ranBy, runs);
    plain.runStoredCalls(onPlain);
    JobRecord job = queue(plain, "alice", call(1, 0, "blender"), onPlain);
    // Nobody with the host is there to claim it; the plain instance leaves it queued.
    Thread.sleep(500);
    assertThat(plain.status(job.id()).orElseThrow().status()).isEqualTo(JobStatus.PENDING);

    PostgresStore blenderStore = TestDatabase.open(at, "blender", lease);
    fleet.add(blenderStore);
    JobScheduler blender = fleet.scheduler(blenderStore);
    blender.runStoredCalls(runner("blender", Set.of("blender"), ranBy, runs));
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> plain.status(job.id()).orElseThrow().status() == JobStatus.COMPLETED);
    assertThat(ranBy).containsEntry("1", "blender");
  }

  @Test
  void queuedJob_cancelledThroughAnotherInstanceBeforeAnyClaim_neverRuns() {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    Map<String, String> ranBy = new ConcurrentHashMap<>();
    AtomicInteger runs = new AtomicInteger();
    StoredCallRunner onA = runner("a", Set.of(), ranBy, runs);
    a.runStoredCalls(onA);
    JobRecord job = queue(a, "alice", call(1, 0, "blender"), onA);

    assertThat(b.cancel(job.id())).isTrue();
    assertThat(a.status(job.id()).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(b.cancel(job.id())).isFalse();
  }

  @Test
  void instanceGone_anIdempotentToolsJobIsQueuedAgainAndRunElsewhere() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    PostgresStore a = TestDatabase.open(at, "a", LEASE);
    JobRecord queued =
        new JobRecord(
            "j1",
            "demo.work",
            null,
            null,
            JobStatus.PENDING,
            java.time.Instant.now(),
            null,
            null,
            null,
            null,
            null,
            null,
            "alice",
            null);
    StoredCall idempotent =
        new StoredCall(
            "demo",
            "work",
            NODES.objectNode().put("n", 1),
            "sha256:1",
            null,
            true,
            null,
            List.of());
    a.jobs().coordination().orElseThrow().enqueue(queued, idempotent);
    assertThat(
            a.jobs()
                .coordination()
                .orElseThrow()
                .claim(new Claimant(Set.of(idempotent.skillKey()), Set.of())))
        .isPresent();
    // A claimed it and stops renewing, as a killed process would.
    a.close();

    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    Map<String, String> ranBy = new ConcurrentHashMap<>();
    AtomicInteger runs = new AtomicInteger();
    b.runStoredCalls(runner("b", Set.of(), ranBy, runs));
    await()
        .atMost(LEASE.plusSeconds(5))
        .until(() -> b.status("j1").orElseThrow().status() == JobStatus.COMPLETED);
    assertThat(ranBy).containsEntry("1", "b");
  }
}
