package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.skillport.api.tool.ToolResult;
import dev.skillport.testsupport.SmallFileSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The job store on a real file system that fills up and frees again. */
class MvStoreJobStoreTest {
  private static final Duration RECOVERY = Duration.ofSeconds(5);
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void save_diskFull_keepsChangesInMemoryAndWritesThemOnceFreed() throws Exception {
    try (SmallFileSystem fs = SmallFileSystem.mount(2)) {
      Path dir = fs.root().resolve("jobs");
      List<String> before = new ArrayList<>();
      JobRecord running;
      try (MvStoreJobStore store = MvStoreJobStore.open(dir)) {
        for (int i = 0; i < 20; i++) {
          JobRecord r = JobRecord.pending("before-" + i, "tool", null, null, T);
          store.save(r);
          before.add(r.id());
        }
        running = JobRecord.pending("running", "tool", null, null, T).running(T);
        store.save(running);
        fs.fill();

        StoreUnavailableException refused = saveUntilRefused(store);
        assertThat(refused.fault().store()).isEqualTo("jobs");
        assertThat(refused.fault().error()).containsIgnoringCase("no space left");
        assertThat(store.fault()).isPresent();
        // A state change made while full is kept: reads show it, never the stale one on disk.
        JobRecord finished =
            running.finished(JobStatus.COMPLETED, T, null, JobResult.of(ToolResult.text("")));
        assertThatThrownBy(() -> store.save(finished))
            .isInstanceOf(StoreUnavailableException.class);
        assertThat(store.find("running").orElseThrow().status()).isEqualTo(JobStatus.COMPLETED);
        // The file's records are readable again once the store reopened it.
        await().atMost(RECOVERY).ignoreExceptions().until(() -> store.find("before-3").isPresent());
        assertThat(store.delete("before-0")).isTrue();
        assertThat(store.find("before-0")).isEmpty();

        fs.free();
        await().atMost(RECOVERY).until(() -> store.fault().isEmpty());
        store.save(JobRecord.pending("after", "tool", null, null, T));
      }
      try (MvStoreJobStore reopened = MvStoreJobStore.open(dir)) {
        assertThat(reopened.find("running").orElseThrow().status()).isEqualTo(JobStatus.COMPLETED);
        assertThat(reopened.find("before-0")).isEmpty();
        for (String id : before.subList(1, before.size())) {
          assertThat(reopened.find(id)).as(id).isPresent();
        }
        assertThat(reopened.find("after")).isPresent();
      }
    }
  }

  @Test
  void submit_diskFull_refusesTheJobAndAFinishedJobNeverReadsRunning() throws Exception {
    try (SmallFileSystem fs = SmallFileSystem.mount(2)) {
      Path dir = fs.root().resolve("jobs");
      CountDownLatch release = new CountDownLatch(1);
      String acknowledged;
      try (JobScheduler jobs = new JobScheduler(MvStoreJobStore.open(dir), 2)) {
        acknowledged =
            jobs.submit(
                    "slow",
                    null,
                    null,
                    ctx -> {
                      try {
                        release.await(20, TimeUnit.SECONDS);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                      return JobResult.of(ToolResult.text(""));
                    },
                    u -> {})
                .id();
        await()
            .atMost(RECOVERY)
            .until(() -> jobs.status(acknowledged).orElseThrow().status() == JobStatus.RUNNING);
        fs.fill();
        saveUntilRefused((MvStoreJobStore) jobs.store());

        int before = jobs.store().all().size();
        assertThatThrownBy(
                () ->
                    jobs.submit(
                        "refused", null, null, ctx -> JobResult.of(ToolResult.text("")), u -> {}))
            .isInstanceOf(StoreUnavailableException.class);
        assertThat(jobs.store().all()).hasSize(before);
        assertThat(jobs.activeJobs()).isEqualTo(1);

        release.countDown();
        await().atMost(RECOVERY).until(() -> jobs.activeJobs() == 0);
        assertThat(jobs.status(acknowledged).orElseThrow().status()).isEqualTo(JobStatus.COMPLETED);

        fs.free();
        await().atMost(RECOVERY).until(() -> jobs.store().fault().isEmpty());
      }
      try (MvStoreJobStore reopened = MvStoreJobStore.open(dir)) {
        assertThat(reopened.find(acknowledged).orElseThrow().status())
            .isEqualTo(JobStatus.COMPLETED);
        assertThat(reopened.all()).extracting(JobRecord::tool).doesNotContain("refused");
      }
    }
  }

  /** Saves filler records until the full disk refuses one. */
  private static StoreUnavailableException saveUntilRefused(MvStoreJobStore store) {
    for (int i = 0; i < 1000; i++) {
      try {
        store.save(JobRecord.pending("filler-" + i, "filler", null, null, T));
      } catch (StoreUnavailableException e) {
        return e;
      }
    }
    throw new AssertionError("a full disk never refused a write");
  }
}
