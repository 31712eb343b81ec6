package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Script progress, logs and jobs as an MCP client sees them over Streamable HTTP. */
class ToolCallsOverHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path skills;
  private SkillportServer server;
  private StreamableHttpTransport http;
  private RawMcpClient client;

  @BeforeEach
  void start() throws Exception {
    Path scripts = Files.createDirectories(skills.resolve("work/scripts"));
    Files.writeString(
        skills.resolve("work/SKILL.md"),
        "---\nname: work\ndescription: Reports progress\nmetadata:\n  dcc-mcp:\n"
            + "    tools: tools.yaml\n---\n");
    Files.writeString(
        skills.resolve("work/tools.yaml"),
        "tools:\n  - name: export\n    description: Exports meshes\n");
    Files.writeString(
        scripts.resolve("export.py"),
        """
        import json, sys
        print("::progress 1 2 first mesh", file=sys.stderr, flush=True)
        print("::log error mesh 7 has no UVs", file=sys.stderr, flush=True)
        print("::progress 2 2 done", file=sys.stderr, flush=True)
        print(json.dumps({"exported": 2}))
        """);
    server =
        SkillportServer.start(
            ServeConfig.of(List.of(SkillRoot.of(skills, Scope.REPO)))
                .withWatch(false)
                .withPreload(List.of("work")),
            "test");
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
    client = new RawMcpClient(URI.create("http://127.0.0.1:" + http.port() + "/mcp"));
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void scriptCall_withProgressToken_sendsProgressAndLogBeforeTheResult() throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", "export");
    params.putObject("arguments");
    params.putObject("_meta").put("progressToken", 42);

    List<JsonNode> messages = client.callMessages(params);

    List<String> methods = messages.stream().map(m -> m.path("method").asText("response")).toList();
    assertThat(methods)
        .containsSubsequence("notifications/progress", "notifications/progress", "response");
    assertThat(methods).contains("notifications/message");
    JsonNode first = messages.get(methods.indexOf("notifications/progress")).path("params");
    assertThat(first.path("progressToken").asInt()).isEqualTo(42);
    assertThat(first.path("total").asDouble()).isEqualTo(2.0);
    assertThat(first.path("message").asText()).isEqualTo("first mesh");
    JsonNode log = messages.get(methods.indexOf("notifications/message")).path("params");
    assertThat(log.path("level").asText()).isEqualTo("error");
    assertThat(log.path("data").asText()).isEqualTo("mesh 7 has no UVs");
    JsonNode result = messages.get(messages.size() - 1).path("result");
    assertThat(result.path("structuredContent").path("exported").asInt()).isEqualTo(2);
  }

  @Test
  void asyncCall_overHttp_finishesWithProgressInItsStatusAndNotifiesTheSession() throws Exception {
    List<JsonNode> stream = client.openStream();
    String id = client.callAsync("export", JSON.createObjectNode());

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> client.status(id).path("status").asText().equals("completed"));
    JsonNode job = client.status(id);
    assertThat(job.path("progress").path("message").asText()).isEqualTo("done");
    assertThat(job.path("result").path("structuredContent").path("exported").asInt()).isEqualTo(2);
    await().atMost(Duration.ofSeconds(20)).until(() -> jobStates(stream, id).contains("completed"));
    assertThat(jobStates(stream, id)).containsExactly("pending", "running", "completed");
  }

  private static List<String> jobStates(List<JsonNode> stream, String id) {
    return stream.stream()
        .filter(m -> m.path("method").asText().equals("notifications/$/dcc.jobUpdated"))
        .filter(m -> m.path("params").path("job_id").asText().equals(id))
        .map(m -> m.path("params").path("status").asText())
        .toList();
  }
}
