package dev.skillport.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real third-party MCP server, {@code @modelcontextprotocol/server-everything} from the npm
 * registry (pinned in interop.mjs), mounted as a bridge skill of a server started with {@code
 * bin/skillport}: its tools listed and called, a resource read and a prompt got through the skill,
 * a long call cancelled, the server killed mid-session and started again, the skill unloaded and
 * the server's process gone; a token passed to it by reference never comes back.
 */
class BridgeEverythingIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PLANTED = "planted-everything-3e9b1c7a55";

  @TempDir Path home;
  @TempDir Path tmp;

  @Test
  void everythingServer_mountedAsASkill_worksEndToEnd() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    BridgeFixtures.skill(
        skills,
        "everything",
        BridgeFixtures.node(),
        List.of(BridgeFixtures.everything(), "stdio"),
        Map.of("API_TOKEN", "${PLANTED_TOKEN}"),
        "timeout_secs: 60\n");
    Path audit = tmp.resolve("audit.jsonl");
    List<String> outputs = new ArrayList<>();

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            Map.of("PLANTED_TOKEN", PLANTED, "SKILLPORT_LOG_LEVEL", "debug"),
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-bridge",
            "everything",
            "--audit-log",
            audit.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      assertThat(childOf(server)).as("nothing starts at discovery").isEmpty();

      JsonNode loaded =
          call(client, "load_skill", JSON.createObjectNode().put("skill_name", "everything"));
      outputs.add(loaded.toString());
      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isFalse();
      assertThat(loaded.path("structuredContent").path("registered_tools").toString())
          .contains("everything__echo", "everything__get-sum", "everything__get-env");
      long firstPid = childOf(server).orElseThrow().pid();

      JsonNode listed = client.result("tools/list", JSON.createObjectNode());
      JsonNode echoTool = null;
      for (JsonNode t : listed.path("tools")) {
        if (t.path("name").asText().equals("everything__echo")) {
          echoTool = t;
        }
      }
      assertThat(echoTool).as(listed.toString()).isNotNull();
      assertThat(echoTool.path("description").asText())
          .startsWith("[third-party: the MCP server of skill everything]");
      assertThat(echoTool.path("inputSchema").path("type").asText()).isEqualTo("object");

      JsonNode echo =
          call(client, "everything__echo", JSON.createObjectNode().put("message", "hi"));
      assertThat(echo.path("content").get(0).path("text").asText()).isEqualTo("Echo: hi");
      JsonNode sum =
          call(client, "everything__get-sum", JSON.createObjectNode().put("a", 2).put("b", 40));
      assertThat(sum.toString()).contains("42");
      JsonNode invalid =
          call(client, "everything__get-sum", JSON.createObjectNode().put("a", "two"));
      assertThat(invalid.path("structuredContent").path("code").asText())
          .as("our argument validation, against the child's schema")
          .isEqualTo("INVALID_ARGUMENTS");

      JsonNode env = call(client, "everything__get-env", JSON.createObjectNode());
      outputs.add(env.toString());
      assertThat(env.path("content").get(0).path("text").asText())
          .contains("\"API_TOKEN\": \"[REDACTED]\"")
          .doesNotContain("SKILLPORT_JAR")
          .doesNotContain(PLANTED);

      JsonNode resources = client.result("resources/list", JSON.createObjectNode());
      String document = null;
      for (JsonNode r : resources.path("resources")) {
        String uri = r.path("uri").asText();
        if (uri.startsWith("bridge://everything/") && uri.contains("document")) {
          document = uri;
        }
      }
      assertThat(document).as(resources.toString()).isNotNull();
      JsonNode read = client.result("resources/read", JSON.createObjectNode().put("uri", document));
      assertThat(read.path("contents").get(0).path("uri").asText()).isEqualTo(document);
      assertThat(read.path("contents").get(0).path("text").asText()).isNotBlank();

      JsonNode prompts = client.result("prompts/list", JSON.createObjectNode());
      assertThat(prompts.toString())
          .contains("everything__simple-prompt", "everything__args-prompt");
      ObjectNode promptParams = JSON.createObjectNode().put("name", "everything__args-prompt");
      promptParams.putObject("arguments").put("city", "Lyon");
      JsonNode prompt = client.result("prompts/get", promptParams);
      assertThat(prompt.path("messages").toString()).contains("Lyon");
      assertThat(prompt.path("description").asText()).startsWith("[third-party:");

      // A long call, cancelled after its first progress: it ends long before its 30 s.
      ObjectNode slow =
          JSON.createObjectNode().put("name", "everything__trigger-long-running-operation");
      slow.putObject("arguments").put("duration", 30).put("steps", 30);
      slow.putObject("_meta").put("progressToken", "slow-1");
      long started = System.nanoTime();
      CompletableFuture<List<JsonNode>> running = client.requestAsync(9001, "tools/call", slow);
      Thread.sleep(2500);
      client.notify(
          "notifications/cancelled",
          JSON.createObjectNode().put("requestId", 9001).put("reason", "the user gave up"));
      List<JsonNode> messages = running.get(20, TimeUnit.SECONDS);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
      assertThat(messages.toString()).contains("notifications/progress").contains("slow-1");
      assertThat(
              call(client, "everything__echo", JSON.createObjectNode().put("message", "after"))
                  .toString())
          .contains("Echo: after");

      // Killed mid-session: reported, started again after its backoff, and working.
      ProcessHandle first = childOf(server).orElseThrow();
      first.destroyForcibly();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> childOf(server).filter(p -> p.pid() != firstPid).isPresent());
      assertThat(
              call(client, "everything__echo", JSON.createObjectNode().put("message", "again"))
                  .toString())
          .contains("Echo: again");
      JsonNode info =
          call(client, "get_skill_info", JSON.createObjectNode().put("skill_name", "everything"));
      outputs.add(info.toString());
      assertThat(info.path("structuredContent").path("diagnostics").toString())
          .contains("MCP_BRIDGE_CRASHED");

      // Unloaded by its only session: the server and everything it started are gone.
      ProcessHandle second = childOf(server).orElseThrow();
      List<ProcessHandle> tree = new ArrayList<>(second.descendants().toList());
      tree.add(second);
      JsonNode unloaded =
          call(client, "unload_skill", JSON.createObjectNode().put("skill_name", "everything"));
      assertThat(unloaded.path("structuredContent").path("unloaded").asBoolean()).isTrue();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> tree.stream().noneMatch(ProcessHandle::isAlive));
      assertThat(childOf(server)).isEmpty();
      outputs.add(server.stderr());
    }
    outputs.add(Files.readString(audit));
    assertThat(Files.readString(audit)).contains("everything__echo");
    for (String output : outputs) {
      assertThat(output).doesNotContain(PLANTED);
    }
  }

  private static JsonNode call(RawMcpClient client, String tool, ObjectNode args) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", args);
    return client.call(params);
  }

  /** The bridged server process among the launched server's descendants. */
  private static Optional<ProcessHandle> childOf(LaunchedServer server) {
    return ProcessHandle.of(server.pid())
        .flatMap(
            p ->
                p.descendants()
                    .filter(ProcessHandle::isAlive)
                    .filter(d -> d.info().commandLine().orElse("").contains("server-everything"))
                    .findFirst());
  }
}
