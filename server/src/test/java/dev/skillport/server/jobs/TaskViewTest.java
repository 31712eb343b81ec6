package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.server.app.TaskView;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Jobs as tasks: the status each job state reads as, and what a detailed task carries. */
class TaskViewTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Instant T = Instant.parse("2026-07-28T10:00:00Z");

  @TempDir Path store;

  private static JobRecord job() {
    return JobRecord.pending("0f8fad5b-d9cb-469f-a165-70867728950e", "bake", null, null, "me", T);
  }

  @Test
  void created_isATaskResultWithPollHints() {
    ObjectNode created = TaskView.created(job());

    assertThat(created.path("resultType").asText()).isEqualTo("task");
    assertThat(created.path("taskId").asText()).isEqualTo(job().id());
    assertThat(created.path("status").asText()).isEqualTo("working");
    assertThat(created.path("ttlMs").asLong()).isPositive();
    assertThat(created.path("pollIntervalMs").asLong()).isPositive();
  }

  @Test
  void statuses_mapJobStatesToTaskStates() {
    JobResult toolError = JobResult.of(ToolResult.error("bad input"));
    ObjectNode asking = NODES.objectNode();
    asking.putObject("q1").put("method", "elicitation/create");

    assertThat(TaskView.status(job().running(T))).isEqualTo("working");
    assertThat(TaskView.status(job().running(T).withInputRequests(asking, T)))
        .isEqualTo("input_required");
    assertThat(
            TaskView.detailed(job().running(T).withInputRequests(asking, T))
                .at("/inputRequests/q1/method")
                .asText())
        .isEqualTo("elicitation/create");
    assertThat(TaskView.status(job().finished(JobStatus.FAILED, T, "bad input", toolError)))
        .as("a tool's own error is a completed task carrying it")
        .isEqualTo("completed");
    assertThat(TaskView.status(job().finished(JobStatus.FAILED, T, "boom", null)))
        .isEqualTo("failed");
    assertThat(TaskView.status(job().finished(JobStatus.CANCELLED, T, "cancelled", null)))
        .isEqualTo("cancelled");
  }

  @Test
  void aTaskCutShortByARestart_readsFailed_withAnError() throws Exception {
    JobRecord running = job().running(T);
    try (MvStoreJobStore first = MvStoreJobStore.open(store)) {
      first.save(running);
    }
    try (JobScheduler restarted = new JobScheduler(MvStoreJobStore.open(store), 1)) {
      JobRecord after = restarted.status(running.id()).orElseThrow();
      ObjectNode task = TaskView.detailed(after);

      assertThat(after.status()).isEqualTo(JobStatus.INTERRUPTED);
      assertThat(task.path("status").asText()).isEqualTo("failed");
      assertThat(task.at("/error/message").asText()).contains("stopped");
      assertThat(after.owner()).as("still bound to its caller").isEqualTo("me");
    }
  }
}
