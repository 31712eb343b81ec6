package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolResult;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OwnedJobsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Principal ALICE = Principal.of("token:aaaaaaaaaaaa");
  private static final Principal BOB = Principal.of("token:bbbbbbbbbbbb");

  private final JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 2);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void close() {
    release.countDown();
    jobs.close();
  }

  private JobRecord start(String owner, boolean waits) {
    return jobs.submit(
        "work",
        null,
        null,
        owner,
        null,
        ctx -> {
          if (waits) {
            try {
              release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return JobResult.of(ToolResult.text("done"));
        },
        u -> {});
  }

  private void awaitDone(JobRecord job) {
    await().atMost(WAIT).until(() -> jobs.status(job.id()).orElseThrow().status().terminal());
  }

  @Test
  void status_anotherCallersJob_isEmptyLikeAnUnknownOne() {
    JobRecord job = start("token:aaaaaaaaaaaa", true);

    assertThat(new OwnedJobs(jobs, ALICE).status(job.id())).isPresent();
    assertThat(new OwnedJobs(jobs, BOB).status(job.id())).isEmpty();
    assertThat(new OwnedJobs(jobs, BOB).completion(job.id())).isEmpty();
    assertThat(new OwnedJobs(jobs, BOB).status("no-such-job")).isEmpty();
  }

  @Test
  void cancelAndAnswer_anotherCallersJob_leaveItRunning() {
    JobRecord job = start("token:aaaaaaaaaaaa", true);
    await()
        .atMost(WAIT)
        .until(() -> jobs.status(job.id()).orElseThrow().status() == JobStatus.RUNNING);

    boolean cancelled = new OwnedJobs(jobs, BOB).cancel(job.id());
    boolean answered =
        new OwnedJobs(jobs, BOB).answer(job.id(), JsonNodeFactory.instance.objectNode());

    assertThat(cancelled).isFalse();
    assertThat(answered).isFalse();
    assertThat(jobs.status(job.id()).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
    assertThat(new OwnedJobs(jobs, ALICE).cancel(job.id())).isTrue();
  }

  @Test
  void cleanup_removesTheCallersOwnFinishedJobsOnly() {
    JobRecord alices = start("token:aaaaaaaaaaaa", false);
    JobRecord bobs = start("token:bbbbbbbbbbbb", false);
    awaitDone(alices);
    awaitDone(bobs);

    int removed = new OwnedJobs(jobs, BOB).cleanup(Duration.ZERO);

    assertThat(removed).isEqualTo(1);
    assertThat(jobs.status(bobs.id())).isEmpty();
    assertThat(new OwnedJobs(jobs, ALICE).status(alices.id())).isPresent();
  }

  @Test
  void jobWithoutOwner_isTheLocalCallersOnly_noTokenReachesIt() {
    JobRecord local = start(null, false);
    awaitDone(local);

    assertThat(new OwnedJobs(jobs, ALICE).status(local.id())).isEmpty();
    assertThat(new OwnedJobs(jobs, ALICE).cleanup(Duration.ZERO)).isZero();
    assertThat(new OwnedJobs(jobs, Principal.LOCAL).status(local.id())).isPresent();
  }
}
