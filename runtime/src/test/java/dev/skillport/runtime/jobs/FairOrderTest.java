package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FairOrderTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void next_callerWithFewerRunningJobs_goesFirstThoughItsJobIsNewer() {
    List<FairOrder.Candidate> queued =
        List.of(
            new FairOrder.Candidate("a1", "alice", T),
            new FairOrder.Candidate("b1", "bob", T.plusSeconds(60)));
    assertThat(FairOrder.next(queued, Map.of("alice", 3), Map.of()))
        .get()
        .extracting(FairOrder.Candidate::id)
        .isEqualTo("b1");
  }

  @Test
  void next_aThousandJobsOfOneCallerAndOneOfAnother_theOneRunsSecond() {
    List<FairOrder.Candidate> queued = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      queued.add(new FairOrder.Candidate(String.format("a%04d", i), "alice", T.plusMillis(i)));
    }
    queued.add(new FairOrder.Candidate("b", "bob", T.plusSeconds(5)));
    // One worker: each job ends before the next starts, so nobody runs anything at a pick.
    List<String> order = new ArrayList<>();
    Map<String, Long> served = new HashMap<>();
    for (long turn = 1; turn <= 4; turn++) {
      FairOrder.Candidate next = FairOrder.next(queued, Map.of(), served).orElseThrow();
      order.add(next.id());
      queued.remove(next);
      served.put(next.caller(), turn);
    }
    assertThat(order).containsExactly("a0000", "b", "a0001", "a0002");
  }

  @Test
  void next_equalCallers_takeTurnsAndEachTakesItsOldestJob() {
    List<FairOrder.Candidate> queued =
        new ArrayList<>(
            List.of(
                new FairOrder.Candidate("a1", "alice", T),
                new FairOrder.Candidate("a2", "alice", T.plusSeconds(1)),
                new FairOrder.Candidate("b1", "bob", T.plusSeconds(2)),
                new FairOrder.Candidate("b2", "bob", T.plusSeconds(3)),
                new FairOrder.Candidate("n1", null, T.plusSeconds(4))));
    List<String> order = new ArrayList<>();
    Map<String, Long> served = new HashMap<>();
    for (long turn = 1; !queued.isEmpty(); turn++) {
      FairOrder.Candidate next = FairOrder.next(queued, Map.of(), served).orElseThrow();
      order.add(next.id());
      queued.remove(next);
      served.put(next.caller(), turn);
    }
    assertThat(order).containsExactly("a1", "b1", "n1", "a2", "b2");
  }

  @Test
  void next_nothingQueued_isEmpty() {
    assertThat(FairOrder.next(List.of(), Map.of(), Map.of())).isEmpty();
  }
}
