package dev.skillport.benchmarks.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.runtime.jobs.JobRecord;
import dev.skillport.runtime.jobs.JobStatus;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobQueueRunTest {

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void drain_batchOfAsyncCalls_everyJobCompletesWithItsResult(boolean persistent) throws Exception {
    try (JobQueueRun run = JobQueueRun.start(persistent, 2)) {
      long nanos = run.drain(40);

      assertThat(nanos).isPositive();
      List<JobRecord> stored = run.jobs().store().all();
      assertThat(stored).hasSize(40).allMatch(j -> j.status() == JobStatus.COMPLETED);
      assertThat(stored)
          .extracting(j -> j.result().result().structured().path("square").asLong())
          .containsExactlyInAnyOrderElementsOf(
              LongStream.range(0, 40).map(n -> n * n).boxed().toList());
      assertThat(run.clear()).isEqualTo(40);
      assertThat(run.jobs().store().all()).isEmpty();
    }
  }
}
