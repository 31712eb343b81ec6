package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jobs_get_status} with {@code include_logs}, on a server started by {@code bin/skillport}:
 * a script that writes 250 {@code ::log} lines as a job shows its newest 200, marked truncated.
 */
class JobLogsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;
  @TempDir Path skills;

  @Test
  void jobsGetStatus_includeLogs_showsTheNewestTwoHundredLinesMarkedTruncated() throws Exception {
    writeSkill();
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            Map.of("TMPDIR", tmp.toString()),
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--preload",
            "chatty")) {
      RawMcpClient client = new RawMcpClient(server.uri());
      String job = client.callAsync("talk", JSON.createObjectNode());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.status(job).path("status").asText().equals("completed"));

      ObjectNode params = JSON.createObjectNode().put("name", "jobs_get_status");
      params.putObject("arguments").put("job_id", job).put("include_logs", true);
      JsonNode status = client.call(params);
      ObjectNode without = JSON.createObjectNode().put("name", "jobs_get_status");
      without.putObject("arguments").put("job_id", job);
      JsonNode plain = client.call(without);

      JsonNode logs = status.path("structuredContent").path("logs");
      assertThat(logs.path("lines")).as(status.toString()).hasSize(200);
      assertThat(logs.path("lines").path(0).path("message").asText()).isEqualTo("step 51");
      assertThat(logs.path("lines").path(199).path("message").asText()).isEqualTo("step 250");
      assertThat(logs.path("lines").path(199).path("level").asText()).isEqualTo("warning");
      assertThat(logs.path("truncated").asBoolean()).isTrue();
      assertThat(logs.path("dropped_lines").asInt()).isEqualTo(50);
      assertThat(plain.path("structuredContent").has("logs")).isFalse();
    }
  }

  private void writeSkill() throws IOException {
    Path scripts = Files.createDirectories(skills.resolve("chatty/scripts"));
    Files.writeString(
        skills.resolve("chatty/SKILL.md"),
        """
        ---
        name: chatty
        description: Logs a lot while it works
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        """);
    Files.writeString(
        skills.resolve("chatty/tools.yaml"),
        """
        tools:
          - name: talk
            description: Writes 250 log lines
        """);
    Files.writeString(
        scripts.resolve("talk.sh"),
        """
        i=1
        while [ $i -lt 250 ]; do echo "::log info step $i" >&2; i=$((i+1)); done
        echo "::log warning step 250" >&2
        echo done
        """);
  }
}
