package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.owner.Principal;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.model.status.ToolMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CallStatsTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-03-04T05:06:07Z"), ZoneOffset.UTC);

  @Test
  void recent_moreCallsThanCapacity_keepsNewestFirst() {
    CallStats stats = new CallStats(3, CLOCK);
    for (int i = 1; i <= 5; i++) {
      stats.record("s", "t" + i, List.of("a"), Duration.ofMillis(i), "ok");
    }

    assertThat(stats.recent()).extracting(AuditEntry::tool).containsExactly("t5", "t4", "t3");
  }

  @Test
  void recent_keepsSessionOutcomeAndArgumentNamesOnly() {
    CallStats stats = new CallStats(8, CLOCK);

    stats.record("s9", "mesh", List.of("size", "name"), Duration.ofMillis(3), "HANDLER_FAILED");

    AuditEntry e = stats.recent().get(0);
    assertThat(e.session()).isEqualTo("s9");
    assertThat(e.argumentNames()).containsExactly("size", "name");
    assertThat(e.outcome()).isEqualTo("HANDLER_FAILED");
    assertThat(e.isError()).isTrue();
    assertThat(e.time()).isEqualTo(CLOCK.instant());
  }

  @Test
  void recentAndMetrics_forAViewer_holdItsOwnCalls_anOperatorsEveryones() {
    CallStats stats = new CallStats(8, CLOCK);
    stats.record("s1", "token:aaaaaaaaaaaa", "alices_tool", List.of(), Duration.ofMillis(1), "ok");
    stats.record("s2", "token:bbbbbbbbbbbb", "bobs_tool", List.of(), Duration.ofMillis(2), "ok");
    Principal bob = Principal.of("token:bbbbbbbbbbbb");
    Principal operator = new Principal("token:cccccccccccc", true);

    assertThat(stats.recent(bob)).extracting(AuditEntry::tool).containsExactly("bobs_tool");
    assertThat(stats.recent(bob).get(0).caller()).isEqualTo("token:bbbbbbbbbbbb");
    assertThat(stats.metrics(bob)).extracting(ToolMetrics::tool).containsExactly("bobs_tool");
    assertThat(stats.recent(operator))
        .extracting(AuditEntry::tool)
        .containsExactly("bobs_tool", "alices_tool");
    assertThat(stats.metrics(operator))
        .extracting(ToolMetrics::tool)
        .containsExactly("alices_tool", "bobs_tool");
    assertThat(stats.recent(Principal.LOCAL)).isEmpty();
    assertThat(stats.metrics(Principal.LOCAL)).isEmpty();
  }

  @Test
  void metrics_countsErrorsAndQueuedAsSuccess() {
    CallStats stats = new CallStats(8, CLOCK);
    stats.record(null, "a", List.of(), Duration.ofMillis(1), "ok");
    stats.record(null, "a", List.of(), Duration.ofMillis(1), "queued");
    stats.record(null, "a", List.of(), Duration.ofMillis(1), "INVALID_ARGUMENTS");
    stats.record(null, "b", List.of(), Duration.ofMillis(1), "UNKNOWN_TOOL");

    assertThat(stats.metrics()).extracting(ToolMetrics::tool).containsExactly("a", "b");
    ToolMetrics a = stats.metrics().get(0);
    assertThat(a.calls()).isEqualTo(3);
    assertThat(a.errors()).isEqualTo(1);
  }

  @Test
  void metrics_percentilesWithinOneBucketOfTheTrueValues() {
    CallStats stats = new CallStats(8, CLOCK);
    List<Long> micros = new ArrayList<>();
    Random random = new Random(42);
    for (int i = 0; i < 2_000; i++) {
      long us = 50 + random.nextInt(20_000);
      micros.add(us);
      stats.record(null, "t", List.of(), Duration.ofNanos(us * 1_000), "ok");
    }
    Collections.sort(micros);

    ToolMetrics m = stats.metrics().get(0);

    long p50 = micros.get(999);
    long p95 = micros.get(1_899);
    assertThat(m.p50().toNanos() / 1_000.0).isBetween(p50 * 1.0, p50 * 1.125);
    assertThat(m.p95().toNanos() / 1_000.0).isBetween(p95 * 1.0, p95 * 1.125);
    assertThat(m.max()).isEqualTo(Duration.ofNanos(micros.get(1_999) * 1_000));
  }

  @Test
  void metrics_oneCall_allPercentilesAreThatCall() {
    CallStats stats = new CallStats(8, CLOCK);

    stats.record(null, "t", List.of(), Duration.ofNanos(1_234_567), "ok");

    ToolMetrics m = stats.metrics().get(0);
    assertThat(m.p50()).isEqualTo(m.max()).isEqualTo(Duration.ofNanos(1_234_567));
    assertThat(m.p95()).isEqualTo(m.max());
  }

  @Test
  void metrics_manyDistinctNames_boundedWithTheRestShared() {
    CallStats stats = new CallStats(8, CLOCK);
    for (int i = 0; i < CallStats.MAX_TOOLS + 50; i++) {
      stats.record(null, "tool" + i, List.of(), Duration.ofMillis(1), "UNKNOWN_TOOL");
    }

    List<ToolMetrics> metrics = stats.metrics();

    assertThat(metrics).hasSize(CallStats.MAX_TOOLS + 1);
    assertThat(metrics)
        .filteredOn(m -> m.tool().equals(CallStats.OTHER_TOOLS))
        .singleElement()
        .extracting(ToolMetrics::calls)
        .isEqualTo(50L);
  }

  @Test
  void record_concurrentWriters_countEveryCall() throws InterruptedException {
    CallStats stats = new CallStats(64, CLOCK);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    for (int t = 0; t < 4; t++) {
      pool.execute(
          () -> {
            for (int i = 0; i < 5_000; i++) {
              stats.record("s", "t", List.of(), Duration.ofNanos(i * 100L), "ok");
            }
          });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

    assertThat(stats.metrics().get(0).calls()).isEqualTo(20_000);
    assertThat(stats.recent()).hasSize(64);
  }

  @Test
  void histogramBuckets_boundsContainTheirValues() {
    for (long us : new long[] {0, 1, 7, 8, 9, 15, 16, 100, 1_000, 123_456, 1L << 40}) {
      int index = DurationHistogram.index(us);
      assertThat(DurationHistogram.upperMicros(index))
          .as("upper of %d", us)
          .isGreaterThanOrEqualTo(us);
      if (index > 0) {
        assertThat(DurationHistogram.upperMicros(index - 1)).as("below %d", us).isLessThan(us);
      }
    }
  }
}
