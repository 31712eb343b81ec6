package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ClientRequest;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two schedulers (two server instances) sharing one folder: a job running on one is read, cancelled
 * and answered through the other.
 */
class SharedTaskFolderTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path shared;

  private static JobResult text(String t) {
    return JobResult.of(ToolResult.text(t));
  }

  @Test
  void jobOnOneInstance_isReadAndCancelledThroughTheOther() throws Exception {
    try (JobScheduler a = new JobScheduler(new MemoryJobStore(), 2);
        JobScheduler b = new JobScheduler(new MemoryJobStore(), 2)) {
      a.share(SharedTaskFolder.open(shared));
      b.share(SharedTaskFolder.open(shared));
      JobRecord started =
          a.submit(
              "wait",
              null,
              null,
              ctx -> {
                while (!ctx.isCancelled()) {
                  try {
                    Thread.sleep(10);
                  } catch (InterruptedException e) {
                    return text("interrupted");
                  }
                }
                return text("cancelled");
              },
              u -> {});
      await()
          .atMost(WAIT)
          .until(
              () -> b.status(started.id()).map(r -> r.status() == JobStatus.RUNNING).orElse(false));

      assertThat(b.cancel(started.id())).isTrue();

      await()
          .atMost(WAIT)
          .until(
              () ->
                  a.status(started.id()).map(r -> r.status() == JobStatus.CANCELLED).orElse(false));
      await()
          .atMost(WAIT)
          .until(
              () ->
                  b.status(started.id()).map(r -> r.status() == JobStatus.CANCELLED).orElse(false));
      assertThat(Files.exists(shared.resolve(started.id() + ".cancel"))).isFalse();
    }
  }

  @Test
  void questionsOfAJobOnOneInstance_areAnsweredThroughTheOther() throws Exception {
    try (JobScheduler a = new JobScheduler(new MemoryJobStore(), 2);
        JobScheduler b = new JobScheduler(new MemoryJobStore(), 2)) {
      a.share(SharedTaskFolder.open(shared));
      b.share(SharedTaskFolder.open(shared));
      JobRecord started =
          a.submit(
              "ask",
              null,
              null,
              "caller",
              capability -> true,
              ctx -> {
                try {
                  JsonNode answer =
                      ctx.requestAll(
                              Map.of(
                                  "name",
                                  new ClientRequest(
                                      "elicitation/create",
                                      NODES.objectNode().put("message", "Name?"))))
                          .get("name");
                  return text("hello " + answer.path("content").path("name").asText());
                } catch (Exception e) {
                  return text("failed: " + e);
                }
              },
              u -> {});
      await()
          .atMost(WAIT)
          .until(() -> b.status(started.id()).map(r -> r.inputRequests() != null).orElse(false));
      assertThat(b.status(started.id()).orElseThrow().owner()).isEqualTo("caller");

      ObjectNode answers = NODES.objectNode();
      answers.putObject("name").put("action", "accept").putObject("content").put("name", "Ada");
      assertThat(b.answer(started.id(), answers)).isTrue();

      await()
          .atMost(WAIT)
          .until(() -> b.status(started.id()).map(r -> r.status().terminal()).orElse(false));
      assertThat(firstText(b.status(started.id()).orElseThrow().result())).isEqualTo("hello Ada");
    }
  }

  @Test
  void idsThatAreNotJobIds_nameNoFile() throws Exception {
    SharedTaskFolder folder = SharedTaskFolder.open(shared);
    try (JobScheduler b = new JobScheduler(new MemoryJobStore(), 1)) {
      b.share(folder);

      assertThat(b.status("../../etc/passwd")).isEmpty();
      assertThat(b.cancel("../x")).isFalse();
      assertThat(b.answer("x/../../y", NODES.objectNode())).isFalse();
      assertThat(b.status("00000000-0000-0000-0000-000000000000")).isEmpty();
    }
    try (var files = Files.list(shared)) {
      assertThat(files).isEmpty();
    }
  }

  /** The text of a job result's first content item. */
  private static String firstText(JobResult result) {
    return ((Content.Text) result.result().content().get(0)).text();
  }
}
