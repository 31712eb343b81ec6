package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link JobStore} does, run against each implementation by a subclass that says how to
 * open one and how to reopen it as a restarted process would.
 */
public abstract class JobStoreContract {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JobStore store;

  /** A new, empty store. */
  protected abstract JobStore open() throws Exception;

  /** The same store as the one just closed, opened again by a process that restarted. */
  protected abstract JobStore reopen() throws Exception;

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  private JobStore store() throws Exception {
    if (store == null) {
      store = open();
    }
    return store;
  }

  private JobStore restarted() throws Exception {
    store().close();
    store = reopen();
    return store;
  }

  /** A job record with every field set, owned by {@code owner}, in {@code status}. */
  protected static JobRecord job(String id, String owner, JobStatus status) {
    JsonNode progress = NODES.objectNode().put("progress", 1).put("total", 2);
    JobResult result = status.terminal() ? JobResult.of(ToolResult.text("done " + id)) : null;
    JsonNode questions =
        status == JobStatus.RUNNING
            ? NODES.objectNode().set("q1", NODES.objectNode().put("method", "elicitation/create"))
            : null;
    return new JobRecord(
        id,
        "skill.tool",
        "session-1",
        null,
        status,
        T,
        status == JobStatus.PENDING ? null : T.plusSeconds(1),
        status.terminal() ? T.plusSeconds(2) : null,
        null,
        progress,
        status == JobStatus.FAILED ? "it failed" : null,
        result,
        owner,
        questions);
  }

  @Test
  void save_thenFind_returnsEveryField() throws Exception {
    JobRecord running = job("a", "alice", JobStatus.RUNNING);
    store().save(running);
    assertThat(store().find("a")).contains(running);
  }

  @Test
  void save_sameId_replacesTheRecord() throws Exception {
    store().save(job("a", "alice", JobStatus.RUNNING));
    JobRecord done = job("a", "alice", JobStatus.COMPLETED);
    store().save(done);
    assertThat(store().find("a")).contains(done);
    assertThat(store().all()).containsExactly(done);
  }

  @Test
  void find_unknownId_isEmpty() throws Exception {
    assertThat(store().find("nope")).isEmpty();
  }

  @Test
  void all_listsEverySavedRecord() throws Exception {
    List<JobRecord> saved =
        List.of(
            job("a", "alice", JobStatus.PENDING),
            job("b", "bob", JobStatus.FAILED),
            job("c", null, JobStatus.COMPLETED));
    for (JobRecord r : saved) {
      store().save(r);
    }
    assertThat(store().all()).containsExactlyInAnyOrderElementsOf(saved);
  }

  @Test
  void delete_knownThenUnknown_trueThenFalse() throws Exception {
    store().save(job("a", "alice", JobStatus.COMPLETED));
    assertThat(store().delete("a")).isTrue();
    assertThat(store().delete("a")).isFalse();
    assertThat(store().find("a")).isEmpty();
  }

  @Test
  void reopen_afterRestart_keepsRecordsAndListsTheUnfinishedAsOrphans() throws Exception {
    JobRecord running = job("a", "alice", JobStatus.RUNNING);
    JobRecord done = job("b", "bob", JobStatus.COMPLETED);
    store().save(running);
    store().save(done);
    JobStore again = restarted();
    assertThat(again.all()).containsExactlyInAnyOrder(running, done);
    assertThat(again.orphans()).containsExactly(running);
  }

  @Test
  void scheduler_startingOnTheStore_marksOrphansInterrupted() throws Exception {
    store().save(job("a", "alice", JobStatus.RUNNING));
    JobStore again = restarted();
    JobScheduler scheduler = new JobScheduler(again, 1);
    assertThat(scheduler.status("a"))
        .get()
        .extracting(JobRecord::status)
        .isEqualTo(JobStatus.INTERRUPTED);
    assertThat(again.orphans()).isEmpty();
  }

  @Test
  void scheduler_queuedJobsOfTwoCallers_takeTurnsOnOneWorker() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    CountDownLatch hold = new CountDownLatch(1);
    JobScheduler jobs = new JobScheduler(store(), 1);
    try {
      // On a shared store the calls are queued there and claimed back; embedded, they queue here.
      jobs.runStoredCalls(demoRunner(ran, hold));
      List<JobRecord> queued = new CopyOnWriteArrayList<>();
      queued.add(submit(jobs, "alice", 0, ran, hold));
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> ran.contains("alice0"));
      for (int n = 1; n <= 5; n++) {
        queued.add(submit(jobs, "alice", n, ran, hold));
      }
      queued.add(submit(jobs, "bob", 1, ran, hold));
      hold.countDown();
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  queued.stream()
                      .allMatch(
                          j -> jobs.status(j.id()).orElseThrow().status() == JobStatus.COMPLETED));
      assertThat(ran)
          .containsExactly("alice0", "bob1", "alice1", "alice2", "alice3", "alice4", "alice5");
    } finally {
      hold.countDown();
      jobs.close();
      // The scheduler closed the store with it.
      store = null;
    }
  }

  private static IdempotencyKey key(String caller, String key, String fingerprint) {
    return new IdempotencyKey(caller, key, fingerprint, Duration.ofHours(1));
  }

  private static JobRecord fresh(String id, String owner) {
    return JobRecord.pending(id, "skill.tool", null, null, owner, T, "here");
  }

  @Test
  void saveNew_sameCallerAndKey_returnsTheFirstJobAndSavesNothing() throws Exception {
    assertThat(store().saveNew(fresh("a", "alice"), key("alice", "k1", "f"))).isEmpty();
    assertThat(store().saveNew(fresh("b", "alice"), key("alice", "k1", "f")))
        .contains(new IdempotencyKey.Prior("a", "f"));
    assertThat(store().find("b")).isEmpty();
    assertThat(store().find("a")).isPresent();
  }

  @Test
  void saveNew_otherCallerSameKey_isIndependent() throws Exception {
    assertThat(store().saveNew(fresh("a", "alice"), key("alice", "k1", "f"))).isEmpty();
    assertThat(store().saveNew(fresh("b", "bob"), key("bob", "k1", "f"))).isEmpty();
    assertThat(store().saveNew(fresh("c", null), key(null, "k1", "f"))).isEmpty();
    assertThat(store().all()).extracting(JobRecord::id).containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void saveNew_sameKeyOtherCall_returnsTheFirstJobsFingerprint() throws Exception {
    store().saveNew(fresh("a", "alice"), key("alice", "k1", "first"));
    assertThat(store().saveNew(fresh("b", "alice"), key("alice", "k1", "second")))
        .contains(new IdempotencyKey.Prior("a", "first"));
    assertThat(store().find("b")).isEmpty();
  }

  @Test
  void saveNew_keyOfARemovedJob_namesTheNewOne() throws Exception {
    store().saveNew(fresh("a", "alice"), key("alice", "k1", "f"));
    store().delete("a");
    assertThat(store().saveNew(fresh("b", "alice"), key("alice", "k1", "f"))).isEmpty();
    assertThat(store().saveNew(fresh("c", "alice"), key("alice", "k1", "f")))
        .contains(new IdempotencyKey.Prior("b", "f"));
  }

  @Test
  void saveNew_keysSurviveARestart() throws Exception {
    store().saveNew(fresh("a", "alice"), key("alice", "k1", "f"));
    JobStore again = restarted();
    assertThat(again.saveNew(fresh("b", "alice"), key("alice", "k1", "f")))
        .contains(new IdempotencyKey.Prior("a", "f"));
  }

  @Test
  void saveNew_racingThreadsWithOneKey_saveOneJob() throws Exception {
    JobStore shared = store();
    int racers = 8;
    CountDownLatch start = new CountDownLatch(1);
    List<java.util.concurrent.Future<java.util.Optional<IdempotencyKey.Prior>>> answers =
        new java.util.ArrayList<>();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(racers);
    try {
      for (int i = 0; i < racers; i++) {
        String id = "r" + i;
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return shared.saveNew(fresh(id, "alice"), key("alice", "race", "f"));
                }));
      }
      start.countDown();
      int created = 0;
      java.util.Set<String> named = new java.util.HashSet<>();
      for (var answer : answers) {
        var prior = answer.get(20, TimeUnit.SECONDS);
        if (prior.isEmpty()) {
          created++;
        } else {
          named.add(prior.get().jobId());
        }
      }
      assertThat(created).isEqualTo(1);
      assertThat(shared.all()).hasSize(1);
      assertThat(named).allMatch(id -> id.equals(shared.all().get(0).id()));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void scheduler_submitWithAKeyTwice_runsTheCallOnce() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    CountDownLatch hold = new CountDownLatch(0);
    JobScheduler jobs = new JobScheduler(store(), 2);
    try {
      jobs.runStoredCalls(demoRunner(ran, hold));
      JobRecord first = submitKeyed(jobs, "alice", 1, "k", "f", ran, hold);
      JobRecord again = submitKeyed(jobs, "alice", 1, "k", "f", ran, hold);
      JobRecord bobs = submitKeyed(jobs, "bob", 1, "k", "f", ran, hold);
      assertThat(again.id()).isEqualTo(first.id());
      assertThat(bobs.id()).isNotEqualTo(first.id());
      org.junit.jupiter.api.Assertions.assertThrows(
          IdempotencyKey.ReusedException.class,
          () -> submitKeyed(jobs, "alice", 2, "k", "other", ran, hold));
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  jobs.status(first.id()).orElseThrow().status() == JobStatus.COMPLETED
                      && jobs.status(bobs.id()).orElseThrow().status() == JobStatus.COMPLETED);
      assertThat(submitKeyed(jobs, "alice", 1, "k", "f", ran, hold).status())
          .isEqualTo(JobStatus.COMPLETED);
      assertThat(ran).containsExactlyInAnyOrder("alice1", "bob1");
    } finally {
      jobs.close();
      store = null;
    }
  }

  private static JobRecord submitKeyed(
      JobScheduler jobs,
      String owner,
      int n,
      String key,
      String fingerprint,
      List<String> ran,
      CountDownLatch hold) {
    StoredCall call =
        new StoredCall(
            "demo",
            "work",
            NODES.objectNode().put("n", n),
            "sha256:1",
            null,
            false,
            null,
            List.of());
    return jobs.submit(
        "demo.work",
        null,
        null,
        owner,
        null,
        call,
        key(owner, key, fingerprint),
        work(owner + n, ran, hold),
        update -> {});
  }

  /** Runs the calls of skill {@code demo} as {@link #work} does, named owner and {@code n}. */
  private static StoredCallRunner demoRunner(List<String> ran, CountDownLatch hold) {
    return new StoredCallRunner() {
      @Override
      public Claimant claimant() {
        return new Claimant(Set.of(StoredCall.key("demo", "sha256:1")), Set.of());
      }

      @Override
      public JobResult run(StoredCall call, String owner, ToolContext context) {
        return work(owner + call.arguments().path("n").asInt(), ran, hold).apply(context);
      }
    };
  }

  private static JobRecord submit(
      JobScheduler jobs, String owner, int n, List<String> ran, CountDownLatch hold) {
    StoredCall call =
        new StoredCall(
            "demo",
            "work",
            NODES.objectNode().put("n", n),
            "sha256:1",
            null,
            false,
            null,
            List.of());
    return jobs.submit(
        "demo.work", null, null, owner, null, call, work(owner + n, ran, hold), update -> {});
  }

  /** Records {@code name} when it runs; the first job waits for {@code hold}. */
  private static Function<ToolContext, JobResult> work(
      String name, List<String> ran, CountDownLatch hold) {
    return context -> {
      ran.add(name);
      try {
        if (!hold.await(10, TimeUnit.SECONDS)) {
          return JobResult.of(ToolResult.error("not released"));
        }
      } catch (InterruptedException e) {
        return JobResult.of(ToolResult.error("interrupted"));
      }
      return JobResult.of(ToolResult.text(name));
    };
  }
}
