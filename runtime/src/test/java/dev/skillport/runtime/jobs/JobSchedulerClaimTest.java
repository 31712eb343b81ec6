package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolResult;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * On a shared store, an instance asks the store for a job to claim when one is announced or a claim
 * poll is due, not every time one of its workers comes free.
 */
class JobSchedulerClaimTest {
  /** A shared store's coordination that holds no queued job and counts the claims asked of it. */
  private static final class Coordination implements JobCoordination {
    final AtomicInteger claims = new AtomicInteger();
    final AtomicReference<Runnable> wake = new AtomicReference<>();

    @Override
    public String instance() {
      return "here";
    }

    @Override
    public boolean requestCancel(String id) {
      return false;
    }

    @Override
    public boolean requestAnswer(String id, JsonNode answers) {
      return false;
    }

    @Override
    public void serve(Requests handler) {}

    @Override
    public Optional<IdempotencyKey.Prior> enqueue(
        JobRecord job, StoredCall call, IdempotencyKey key) {
      throw new AssertionError("no call here is queued in the store");
    }

    @Override
    public Optional<Claimed> claim(Claimant who) {
      claims.incrementAndGet();
      return Optional.empty();
    }

    @Override
    public Optional<JobRecord> endQueued(String id, UnaryOperator<JobRecord> end) {
      return Optional.empty();
    }

    @Override
    public void onQueued(Runnable wake) {
      this.wake.set(wake);
    }
  }

  /** A memory store that says it is shared, through {@code coordination}. */
  private static final class Shared extends MemoryBackedStore {
    final Coordination coordination = new Coordination();

    @Override
    public Optional<JobCoordination> coordination() {
      return Optional.of(coordination);
    }
  }

  @Test
  void workersComingFree_askTheStoreNoMoreThanItsPolls_anAnnouncedJobAtOnce() throws Exception {
    Shared store = new Shared();
    try (JobScheduler jobs = new JobScheduler(store, 2, "here")) {
      jobs.runStoredCalls(
          new StoredCallRunner() {
            @Override
            public Claimant claimant() {
              return new Claimant(Set.of("skill"), Set.of());
            }

            @Override
            public JobResult run(
                StoredCall call, String owner, dev.skillport.api.tool.ToolContext context) {
              throw new AssertionError("nothing is claimed");
            }
          });
      // The first claim, at start, finds nothing.
      await().atMost(Duration.ofSeconds(2)).until(() -> store.coordination.claims.get() >= 1);
      long start = System.nanoTime();
      int before = store.coordination.claims.get();

      for (int i = 0; i < 30; i++) {
        JobRecord job =
            jobs.submit("t", null, null, ctx -> JobResult.of(ToolResult.text("ok")), status -> {});
        await()
            .atMost(Duration.ofSeconds(2))
            .until(() -> jobs.status(job.id()).orElseThrow().status() == JobStatus.COMPLETED);
      }
      long polls =
          Duration.ofNanos(System.nanoTime() - start).toMillis() / JobScheduler.CLAIM_POLL_MS;

      // Thirty jobs ran here, each freeing a worker: at most one claim per poll interval, not one
      // per job.
      assertThat(store.coordination.claims.get() - before).isLessThanOrEqualTo((int) polls + 1);

      int announced = store.coordination.claims.get();
      store.coordination.wake.get().run();
      await()
          .atMost(Duration.ofMillis(JobScheduler.CLAIM_POLL_MS / 2))
          .until(() -> store.coordination.claims.get() > announced);
    }
  }
}
