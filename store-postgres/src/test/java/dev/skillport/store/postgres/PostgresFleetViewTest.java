package dev.skillport.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.runtime.AuditTrail;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.PathRules;
import dev.skillport.runtime.SkillAccess;
import dev.skillport.runtime.jobs.Claimant;
import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobResult;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.runtime.jobs.StoredCall;
import dev.skillport.runtime.jobs.StoredCallRunner;
import dev.skillport.runtime.secrets.Redactor;
import dev.skillport.testsupport.PostgresCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What an operator and a client of one instance see of the fleet on one real PostgreSQL: the
 * progress and status of jobs other instances run, the fleet's audit trail, who runs what.
 */
class PostgresFleetViewTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Duration LEASE = Duration.ofSeconds(3);
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

  @Test
  void progressAndStatus_ofAJobRunElsewhere_reachAnotherInstanceWithinASecond() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    record Seen(JobRecord job, long nanos) {}
    List<Seen> seenOnB = new CopyOnWriteArrayList<>();
    b.addObserver(job -> seenOnB.add(new Seen(job, System.nanoTime())));
    CountDownLatch reported = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    long[] reportedAt = new long[1];
    JobRecord job =
        a.submit(
            "render",
            null,
            null,
            "alice",
            null,
            ctx -> {
              reportedAt[0] = System.nanoTime();
              ctx.progress(3, 10.0, "frame 3 of 10");
              reported.countDown();
              try {
                finish.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return JobResult.of(ToolResult.text("done"));
            },
            status -> {});
    assertThat(job.instance()).isEqualTo("a");
    assertThat(reported.await(5, TimeUnit.SECONDS)).isTrue();

    await()
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> seenOnB.stream().anyMatch(s -> progressMessage(s.job()).equals("frame 3")));
    Seen progress =
        seenOnB.stream().filter(s -> progressMessage(s.job()).equals("frame 3")).findFirst().get();
    assertThat(Duration.ofNanos(progress.nanos() - reportedAt[0]))
        .isLessThan(Duration.ofSeconds(1));
    assertThat(progress.job().instance()).isEqualTo("a");
    // tasks/get on B reads the store: the progress is there too.
    JobRecord onB = b.status(job.id()).orElseThrow();
    assertThat(onB.progress().get("progress").asDouble()).isEqualTo(3.0);
    assertThat(onB.progress().get("message").asText()).isEqualTo("frame 3 of 10");

    long finished = System.nanoTime();
    finish.countDown();
    await()
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> seenOnB.stream().anyMatch(s -> s.job().status() == JobStatus.COMPLETED));
    Seen done =
        seenOnB.stream().filter(s -> s.job().status() == JobStatus.COMPLETED).findFirst().get();
    assertThat(Duration.ofNanos(done.nanos() - finished)).isLessThan(Duration.ofSeconds(1));
    // Each change once: one completed record, no echo of A's own jobs on A.
    Thread.sleep(600);
    assertThat(seenOnB.stream().filter(s -> s.job().status() == JobStatus.COMPLETED)).hasSize(1);
  }

  @Test
  void jobUpdated_ofAJobQueuedOnAAndRunOnB_reachesTheSessionOnA_untilItEnds() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    // A serves no skill the call needs; B does, and runs it.
    a.runStoredCalls(runner(java.util.Set.of(), (call, ctx) -> JobResult.of(ToolResult.text("a"))));
    CountDownLatch reported = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    b.runStoredCalls(
        runner(
            java.util.Set.of(StoredCall.key("demo", "sha256:1")),
            (call, ctx) -> {
              ctx.progress(1, 4.0, "step 1");
              reported.countDown();
              try {
                finish.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return JobResult.of(ToolResult.text("done"));
            }));
    record Update(com.fasterxml.jackson.databind.JsonNode wire, long nanos) {}
    List<Update> session = new CopyOnWriteArrayList<>();
    StoredCall call =
        new StoredCall(
            "demo", "work", NODES.objectNode(), "sha256:1", null, false, null, List.of());
    JobRecord job =
        a.submit(
            "demo.work",
            "session-on-a",
            null,
            "alice",
            null,
            call,
            ctx -> JobResult.of(ToolResult.text("never here")),
            wire -> session.add(new Update(wire, System.nanoTime())));
    assertThat(reported.await(5, TimeUnit.SECONDS)).isTrue();
    await()
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () ->
                session.stream()
                    .anyMatch(
                        u -> u.wire().path("progress").path("message").asText().equals("step 1")));
    assertThat(b.status(job.id()).orElseThrow().instance()).isEqualTo("b");

    long finished = System.nanoTime();
    finish.countDown();
    await()
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () ->
                session.stream()
                    .anyMatch(u -> u.wire().path("status").asText().equals("completed")));
    Thread.sleep(600);
    List<String> statuses = session.stream().map(u -> u.wire().path("status").asText()).toList();
    assertThat(statuses.get(0)).isEqualTo("pending");
    assertThat(statuses).contains("running").containsOnlyOnce("completed");
    assertThat(statuses.get(statuses.size() - 1)).isEqualTo("completed");
    assertThat(session).allMatch(u -> u.wire().path("job_id").asText().equals(job.id()));
    Update done =
        session.stream()
            .filter(u -> u.wire().path("status").asText().equals("completed"))
            .findFirst()
            .get();
    assertThat(Duration.ofNanos(done.nanos() - finished)).isLessThan(Duration.ofSeconds(1));
  }

  /** A runner offering {@code skills} (no host) that runs every call with {@code run}. */
  private static StoredCallRunner runner(
      java.util.Set<String> skills,
      java.util.function.BiFunction<StoredCall, dev.skillport.api.tool.ToolContext, JobResult>
          run) {
    return new StoredCallRunner() {
      @Override
      public Claimant claimant() {
        return new Claimant(skills, java.util.Set.of());
      }

      @Override
      public JobResult run(
          StoredCall call, String owner, dev.skillport.api.tool.ToolContext context) {
        return run.apply(call, context);
      }
    };
  }

  private static String progressMessage(JobRecord job) {
    return job.progress() == null
        ? ""
        : job.progress().path("message").asText().replace(" of 10", "");
  }

  @Test
  void leaseRenewals_areNoChanges() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    JobScheduler a = fleet.scheduler(fleet.open(at, "a"));
    JobScheduler b = fleet.scheduler(fleet.open(at, "b"));
    List<JobRecord> seenOnB = new CopyOnWriteArrayList<>();
    CountDownLatch finish = new CountDownLatch(1);
    JobRecord job =
        a.submit(
            "wait",
            null,
            null,
            "alice",
            null,
            ctx -> {
              try {
                finish.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return JobResult.of(ToolResult.text(""));
            },
            status -> {});
    await().until(() -> b.status(job.id()).orElseThrow().status() == JobStatus.RUNNING);
    b.addObserver(seenOnB::add);
    // B's feed may still be passing on the job's own start (it reads changes on a notification
    // and every 0.5 s): after two of its polls, what follows is renewals only.
    Thread.sleep(1000);
    seenOnB.clear();
    // Three lease renewals (every third of the lease) change no record.
    Thread.sleep(LEASE.toMillis() + 200);
    assertThat(seenOnB).isEmpty();
    assertThat(a.store().coordination().orElseThrow().activeByInstance())
        .containsEntry("a", java.util.Map.of(JobStatus.RUNNING, 1));
    finish.countDown();
    await().atMost(Duration.ofSeconds(2)).until(() -> !seenOnB.isEmpty());
    assertThat(a.store().coordination().orElseThrow().activeByInstance()).isEmpty();
  }

  @Test
  void auditTrail_ofEveryInstance_isReadFromAny_eachCallerSeesItsOwn() throws Exception {
    PostgresLocation at = TestDatabase.fresh(cluster);
    PostgresStore a = fleet.open(at, "a");
    PostgresStore b = fleet.open(at, "b");
    try (CallGuard onA =
            CallGuard.of(SkillAccess.OPEN, PathRules.NONE, null, a.audit(), new Redactor());
        CallGuard onB =
            CallGuard.of(SkillAccess.OPEN, PathRules.NONE, null, b.audit(), new Redactor())) {
      CallMeta alice =
          new CallMeta("session-secret-id", false, null, u -> {}).withCaller("alice", null);
      CallMeta bob = new CallMeta(null, false, null, u -> {}).withCaller("bob", null);
      onA.record(
          alice,
          "render.frame",
          NODES.objectNode().put("scene", "x").put("token", "hunter2"),
          Duration.ofMillis(12),
          "ok");
      Principal ops = new Principal("ops", true);
      await().atMost(Duration.ofSeconds(2)).until(() -> a.audit().recent(ops, 10).size() == 1);
      onB.record(bob, "render.frame", NODES.objectNode(), Duration.ofMillis(5), "TOOL_ERROR");
    }
    Principal operator = new Principal("ops", true);
    await().atMost(Duration.ofSeconds(2)).until(() -> a.audit().recent(operator, 10).size() == 2);
    List<AuditEntry> fromB = b.audit().recent(operator, 10);
    assertThat(fromB).extracting(AuditEntry::instance).containsExactly("b", "a");
    assertThat(fromB).extracting(AuditEntry::caller).containsExactly("bob", "alice");
    assertThat(fromB).extracting(AuditEntry::outcome).containsExactly("TOOL_ERROR", "ok");
    AuditEntry aliceCall = fromB.get(1);
    assertThat(aliceCall.argumentNames()).containsExactly("scene", "token");
    assertThat(aliceCall.duration()).isEqualTo(Duration.ofMillis(12));
    // The session is kept as its label, never as the id a client presents.
    assertThat(aliceCall.session()).isEqualTo(AuditTrail.sessionLabel("session-secret-id"));
    assertThat(b.audit().recent(Principal.of("alice"), 10))
        .extracting(AuditEntry::caller)
        .containsExactly("alice");
    assertThat(a.audit().recent(Principal.LOCAL, 10)).isEmpty();
    try (Connection c = connect(at);
        Statement s = c.createStatement()) {
      var rows = s.executeQuery("SELECT entry::text FROM skillport_audit");
      while (rows.next()) {
        assertThat(rows.getString(1)).doesNotContain("hunter2").doesNotContain("session-secret");
      }
      assertThatThrownBy(() -> s.executeUpdate("DELETE FROM skillport_audit"))
          .hasMessageContaining("append-only");
    }
  }

  private static Connection connect(PostgresLocation at) throws java.sql.SQLException {
    Properties p = new Properties();
    p.setProperty("user", PostgresCluster.USER);
    p.setProperty("password", cluster.password());
    return DriverManager.getConnection(at.jdbcUrl(), p);
  }
}
