package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobSchedulerTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;

  @Test
  void submit_successfulCall_movesPendingRunningCompletedAndKeepsResult() {
    List<String> updates = new CopyOnWriteArrayList<>();
    try (JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 2)) {
      JobRecord queued =
          jobs.submit(
              "make_cube",
              "s1",
              null,
              ctx -> result("cube made", false),
              u -> updates.add(u.path("status").asText()));

      assertThat(queued.status()).isEqualTo(JobStatus.PENDING);
      await().atMost(WAIT).until(() -> jobs.status(queued.id()).orElseThrow().status().terminal());
      JobRecord done = jobs.status(queued.id()).orElseThrow();
      assertThat(done.status()).isEqualTo(JobStatus.COMPLETED);
      assertThat(firstText(done.result())).isEqualTo("cube made");
      assertThat(done.startedAt()).isNotNull();
      assertThat(done.completedAt()).isNotNull();
      await().atMost(WAIT).until(() -> updates.size() == 3);
      assertThat(updates).containsExactly("pending", "running", "completed");
    }
  }

  @Test
  void submit_errorResult_isFailedWithItsMessage() {
    try (JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 1)) {
      JobRecord queued = jobs.submit("explode", null, null, ctx -> result("boom", true), u -> {});

      await().atMost(WAIT).until(() -> jobs.status(queued.id()).orElseThrow().status().terminal());
      JobRecord done = jobs.status(queued.id()).orElseThrow();
      assertThat(done.status()).isEqualTo(JobStatus.FAILED);
      assertThat(done.error()).isEqualTo("boom");
    }
  }

  @Test
  void submit_twoHundredConcurrentJobs_allCompleteWithTheirOwnResults() throws Exception {
    try (JobScheduler jobs = new JobScheduler(MvStoreJobStore.open(dir), 8)) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        int n = i;
        ids.add(
            jobs.submit(
                    "square",
                    null,
                    null,
                    ctx -> {
                      sleep(5);
                      return result(Integer.toString(n * n), false);
                    },
                    u -> {})
                .id());
      }

      await().atMost(WAIT).until(() -> jobs.activeJobs() == 0);
      for (int i = 0; i < 200; i++) {
        JobRecord r = jobs.store().find(ids.get(i)).orElseThrow();
        assertThat(r.status()).isEqualTo(JobStatus.COMPLETED);
        assertThat(firstText(r.result())).isEqualTo(Integer.toString(i * i));
      }
    }
  }

  @Test
  void cancel_runningJob_isCancelledAndTheCallSeesIt() throws Exception {
    CountDownLatch sawCancel = new CountDownLatch(1);
    try (JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 1)) {
      JobRecord job = jobs.submit("slow", null, null, untilCancelled(sawCancel), u -> {});
      await()
          .atMost(WAIT)
          .until(() -> jobs.status(job.id()).orElseThrow().status() == JobStatus.RUNNING);

      assertThat(jobs.cancel(job.id())).isTrue();

      assertThat(sawCancel.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(jobs.status(job.id()).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(jobs.cancel(job.id())).isFalse();
    }
  }

  @Test
  void cancel_parent_cancelsRunningAndPendingChildrenButNotOthers() throws Exception {
    CountDownLatch childSawCancel = new CountDownLatch(1);
    try (JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 2)) {
      JobRecord parent =
          jobs.submit("parent", null, null, untilCancelled(new CountDownLatch(1)), u -> {});
      JobRecord running =
          jobs.submit("child", null, parent.id(), untilCancelled(childSawCancel), u -> {});
      JobRecord pending =
          jobs.submit("child2", null, parent.id(), ctx -> result("x", false), u -> {});
      JobRecord grandchild =
          jobs.submit("grandchild", null, pending.id(), ctx -> result("y", false), u -> {});
      JobRecord other = jobs.submit("other", null, null, ctx -> result("z", false), u -> {});
      await()
          .atMost(WAIT)
          .until(() -> jobs.status(running.id()).orElseThrow().status() == JobStatus.RUNNING);

      jobs.cancel(parent.id());

      assertThat(childSawCancel.await(10, TimeUnit.SECONDS)).isTrue();
      for (JobRecord r : List.of(parent, running, pending, grandchild)) {
        assertThat(jobs.status(r.id()).orElseThrow().status())
            .as(r.tool())
            .isEqualTo(JobStatus.CANCELLED);
      }
      await().atMost(WAIT).until(() -> jobs.status(other.id()).orElseThrow().status().terminal());
      assertThat(jobs.status(other.id()).orElseThrow().status()).isEqualTo(JobStatus.COMPLETED);
    }
  }

  @Test
  void submit_underCancelledParent_isCancelledAtOnce() {
    try (JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 1)) {
      JobRecord parent =
          jobs.submit("parent", null, null, untilCancelled(new CountDownLatch(1)), u -> {});
      jobs.cancel(parent.id());

      JobRecord child =
          jobs.submit("child", null, parent.id(), ctx -> result("ran", false), u -> {});

      assertThat(jobs.status(child.id()).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    }
  }

  @Test
  void restart_unfinishedJobsReadInterruptedAndFinishedKeepResults() throws Exception {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    try (MvStoreJobStore store = MvStoreJobStore.open(dir)) {
      store.save(JobRecord.pending("p", "tool", null, null, t));
      store.save(JobRecord.pending("r", "tool", null, null, t).running(t));
      store.save(
          JobRecord.pending("c", "tool", null, null, t)
              .running(t)
              .finished(JobStatus.COMPLETED, t, null, result("kept", false)));
    }

    try (JobScheduler jobs = new JobScheduler(MvStoreJobStore.open(dir), 1)) {
      assertThat(jobs.status("p").orElseThrow().status()).isEqualTo(JobStatus.INTERRUPTED);
      assertThat(jobs.status("r").orElseThrow().status()).isEqualTo(JobStatus.INTERRUPTED);
      assertThat(jobs.status("r").orElseThrow().error()).contains("running");
      JobRecord completed = jobs.status("c").orElseThrow();
      assertThat(completed.status()).isEqualTo(JobStatus.COMPLETED);
      assertThat(firstText(completed.result())).isEqualTo("kept");
    }
  }

  @Test
  void all_damagedRecord_isSkippedAndOthersRead() throws Exception {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    try (MvStoreJobStore store = MvStoreJobStore.open(dir)) {
      store.save(JobRecord.pending("good", "tool", null, null, t));
    }
    MVStore raw =
        new MVStore.Builder().fileName(dir.resolve(MvStoreJobStore.FILE).toString()).open();
    MVMap<String, String> map = raw.openMap("jobs");
    map.put("bad", "{not json");
    raw.close();

    try (MvStoreJobStore store = MvStoreJobStore.open(dir)) {
      assertThat(store.all()).extracting(JobRecord::id).containsExactly("good");
      assertThat(store.find("bad")).isEmpty();
    }
  }

  @Test
  void cleanup_removesOnlyOldFinishedJobs() throws Exception {
    Instant now = Instant.parse("2026-01-02T00:00:00Z");
    Instant old = now.minus(Duration.ofHours(30));
    MemoryJobStore store = new MemoryJobStore();
    store.save(
        JobRecord.pending("old-done", "t", null, null, old)
            .running(old)
            .finished(JobStatus.COMPLETED, old, null, null));
    store.save(
        JobRecord.pending("new-done", "t", null, null, now)
            .running(now)
            .finished(JobStatus.FAILED, now, "x", null));
    try (JobScheduler jobs = new JobScheduler(store, 1, Clock.fixed(now, ZoneOffset.UTC))) {
      JobRecord running =
          jobs.submit("slow", null, null, untilCancelled(new CountDownLatch(1)), u -> {});

      assertThat(jobs.cleanup(Duration.ofHours(24))).isEqualTo(1);

      assertThat(store.find("old-done")).isEmpty();
      assertThat(store.find("new-done")).isPresent();
      assertThat(jobs.status(running.id())).isPresent();
    }
  }

  private static Function<ToolContext, JobResult> untilCancelled(CountDownLatch saw) {
    return ctx -> {
      long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!ctx.isCancelled() && System.nanoTime() < until) {
        sleep(10);
      }
      saw.countDown();
      return result("stopped", false);
    };
  }

  /** A job's result holding {@code text}; failed for {@code text} when {@code error}. */
  private static JobResult result(String text, boolean error) {
    return JobResult.of(error ? ToolResult.error(text) : ToolResult.text(text));
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The text of a job result's first content item. */
  private static String firstText(JobResult result) {
    return ((Content.Text) result.result().content().get(0)).text();
  }
}
