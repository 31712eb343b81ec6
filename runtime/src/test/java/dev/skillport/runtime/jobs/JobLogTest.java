package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolResult;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JobLogTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void add_fewLines_keptInOrderNotTruncated() {
    JobLog log = new JobLog();
    log.add(T, "info", "first");
    log.add(T.plusSeconds(1), "warning", "second");

    ObjectNode wire = log.toWire();

    assertThat(wire.path("lines")).hasSize(2);
    assertThat(wire.path("lines").path(0).path("message").asText()).isEqualTo("first");
    assertThat(wire.path("lines").path(1).path("level").asText()).isEqualTo("warning");
    assertThat(wire.path("lines").path(1).path("at").asText()).isEqualTo("2026-01-01T00:00:01Z");
    assertThat(wire.path("truncated").asBoolean()).isFalse();
    assertThat(wire.path("dropped_lines").asLong()).isZero();
    assertThat(wire.path("kept").asBoolean()).isTrue();
  }

  @Test
  void add_pastTheLineCap_keepsTheNewestAndCountsTheDropped() {
    JobLog log = new JobLog();
    for (int i = 0; i < JobLog.MAX_LINES + 50; i++) {
      log.add(T, "info", "line " + i);
    }

    ObjectNode wire = log.toWire();

    assertThat(wire.path("lines")).hasSize(JobLog.MAX_LINES);
    assertThat(wire.path("lines").path(0).path("message").asText()).isEqualTo("line 50");
    assertThat(wire.path("lines").path(JobLog.MAX_LINES - 1).path("message").asText())
        .isEqualTo("line " + (JobLog.MAX_LINES + 49));
    assertThat(wire.path("truncated").asBoolean()).isTrue();
    assertThat(wire.path("dropped_lines").asLong()).isEqualTo(50);
  }

  @Test
  void add_pastTheCharacterCap_keepsAtMostTheCapAndCutsLongLines() {
    JobLog log = new JobLog();
    String big = "x".repeat(JobLog.MAX_LINE_CHARS * 2);
    for (int i = 0; i < 20; i++) {
      log.add(T, "info", big);
    }

    ObjectNode wire = log.toWire();

    int chars = 0;
    for (JsonNode line : wire.path("lines")) {
      assertThat(line.path("message").asText()).hasSize(JobLog.MAX_LINE_CHARS).endsWith("…");
      chars += line.path("message").asText().length();
    }
    assertThat(chars).isLessThanOrEqualTo(JobLog.MAX_CHARS);
    assertThat(wire.path("lines")).hasSize(JobLog.MAX_CHARS / JobLog.MAX_LINE_CHARS);
    assertThat(wire.path("truncated").asBoolean()).isTrue();
    assertThat(wire.path("dropped_lines").asLong()).isEqualTo(12);
  }

  @Test
  void logs_jobThatLogs_showsItsLinesWhileRunningAndAfter() throws Exception {
    CountDownLatch logged = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    try (JobScheduler jobs = new JobScheduler(new MemoryJobStore(), 1)) {
      JobRecord queued =
          jobs.submit(
              "render",
              null,
              null,
              ctx -> {
                ctx.log("info", "frame 1 of 2");
                logged.countDown();
                hold(finish);
                ctx.log("warning", "frame 2 was slow");
                return JobResult.of(ok());
              },
              u -> {});
      assertThat(logged.await(20, TimeUnit.SECONDS)).isTrue();

      JsonNode running = jobs.logs(queued.id()).orElseThrow();
      assertThat(running.path("lines")).hasSize(1);
      assertThat(running.path("lines").path(0).path("message").asText()).isEqualTo("frame 1 of 2");

      finish.countDown();
      await().atMost(WAIT).until(() -> jobs.status(queued.id()).orElseThrow().status().terminal());
      JsonNode done = jobs.logs(queued.id()).orElseThrow();
      assertThat(done.path("lines")).hasSize(2);
      assertThat(done.path("lines").path(1).path("level").asText()).isEqualTo("warning");
      assertThat(jobs.logs("unknown")).isEmpty();

      jobs.cleanup(Duration.ZERO);
      assertThat(jobs.logs(queued.id())).isEmpty();
    }
  }

  private static void hold(CountDownLatch latch) {
    try {
      latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ToolResult ok() {
    return ToolResult.text("ok");
  }
}
