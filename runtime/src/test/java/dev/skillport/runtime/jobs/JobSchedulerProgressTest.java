package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.api.tool.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A running job's progress is written to its store (for other instances and the page), bounded. */
class JobSchedulerProgressTest {
  /** Counts the progress reports the store was given. */
  private static final class Counting extends MemoryBackedStore {
    final List<String> progressSaved = new CopyOnWriteArrayList<>();

    @Override
    public void save(JobRecord job) {
      if (job.status() == JobStatus.RUNNING && job.progress() != null) {
        progressSaved.add(job.progress().path("message").asText());
      }
      super.save(job);
    }
  }

  @Test
  void progress_isStoredAtMostEveryInterval_theLastReportWhenItEnds() throws Exception {
    Counting store = new Counting();
    List<JobRecord> observed = new CopyOnWriteArrayList<>();
    CountDownLatch reported = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    try (JobScheduler jobs = new JobScheduler(store, 1, "here")) {
      jobs.addObserver(observed::add);
      JobRecord job =
          jobs.submit(
              "t",
              null,
              null,
              "alice",
              null,
              ctx -> {
                for (int i = 1; i <= 50; i++) {
                  ctx.progress(i, 50.0, "step " + i);
                }
                reported.countDown();
                try {
                  finish.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                return JobResult.of(ToolResult.text("ok"));
              },
              s -> {});
      assertThat(job.instance()).isEqualTo("here");
      assertThat(reported.await(5, TimeUnit.SECONDS)).isTrue();
      // The first report is written at once, the burst after it once the interval is over.
      await()
          .atMost(Duration.ofSeconds(2))
          .until(
              () -> store.find(job.id()).orElseThrow().progress().path("message").asText(),
              "step 50"::equals);
      assertThat(store.progressSaved).hasSizeLessThanOrEqualTo(3).contains("step 1", "step 50");
      assertThat(observed).anyMatch(r -> r.progress() != null && r.status() == JobStatus.RUNNING);
      finish.countDown();
      await().until(() -> store.find(job.id()).orElseThrow().status() == JobStatus.COMPLETED);
      assertThat(store.find(job.id()).orElseThrow().instance()).isEqualTo("here");
    }
  }
}
