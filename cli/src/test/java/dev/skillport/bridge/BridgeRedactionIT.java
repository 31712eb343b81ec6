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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A token a bridged server gets by reference ({@code API_TOKEN: ${PLANTED_TOKEN}}) and gives away
 * on every channel it has: a tool result, a tool error with structured content, a JSON-RPC error, a
 * log message forwarded to the caller, a prompt, a resource, and its stderr before it dies (shown
 * in the crash diagnostic). On a server started with {@code bin/skillport}, every answer, the
 * Skills extension's listing, the server's log on stderr and the audit file are collected: each
 * shows the mask where the child wrote the token, and none holds the token.
 */
class BridgeRedactionIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PLANTED = "planted-bridge-token-5b7d9e1f3a";
  private static final String MASK = "[REDACTED]";

  @TempDir Path home;
  @TempDir Path tmp;

  @Test
  void tokenGivenByReference_isMaskedOnEveryChannel() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    BridgeFixtures.skill(
        skills,
        "fx",
        BridgeFixtures.node(),
        List.of(BridgeFixtures.fixtureServer(), "good"),
        Map.of("API_TOKEN", "${PLANTED_TOKEN}"),
        "");
    Path audit = tmp.resolve("audit.jsonl");
    List<String> channels = new ArrayList<>();

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            Map.of("PLANTED_TOKEN", PLANTED, "SKILLPORT_LOG_LEVEL", "debug"),
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-bridge",
            "fx",
            "--audit-log",
            audit.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());
      client.result("logging/setLevel", JSON.createObjectNode().put("level", "debug"));
      JsonNode loaded = call(client, "load_skill", "skill_name", "fx");
      channels.add(loaded.toString());
      assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isFalse();

      JsonNode token = call(client, "fx__token");
      channels.add(token.toString());
      assertThat(token.path("content").get(0).path("text").asText()).isEqualTo("token is " + MASK);

      ObjectNode leak = JSON.createObjectNode().put("name", "fx__leak");
      leak.putObject("arguments");
      List<JsonNode> leaked =
          client.requestAsync(7001, "tools/call", leak).get(30, TimeUnit.SECONDS);
      channels.add(leaked.toString());
      assertThat(leaked.toString())
          .contains("notifications/message")
          .contains("logging the token " + MASK);
      JsonNode leakResult = leaked.get(leaked.size() - 1).path("result");
      assertThat(leakResult.path("isError").asBoolean()).as(leaked.toString()).isTrue();
      assertThat(leakResult.toString()).contains("failed with token " + MASK);

      JsonNode refused = call(client, "fx__reads");
      channels.add(refused.toString());
      assertThat(refused.path("isError").asBoolean()).as(refused.toString()).isTrue();
      assertThat(refused.toString()).contains("no access with " + MASK);

      ObjectNode greet = JSON.createObjectNode().put("name", "fx__greet");
      greet.putObject("arguments").put("who", "secret");
      JsonNode prompt = client.result("prompts/get", greet);
      channels.add(prompt.toString());
      assertThat(prompt.toString()).contains("Say hello to " + MASK);

      String note = BridgedContent.uri("fx", "note://token");
      JsonNode read = client.result("resources/read", JSON.createObjectNode().put("uri", note));
      channels.add(read.toString());
      assertThat(read.path("contents").get(0).path("text").asText()).isEqualTo("the token " + MASK);

      for (String method : List.of("tools/list", "prompts/list", "resources/list", "skills/list")) {
        channels.add(client.result(method, JSON.createObjectNode()).toString());
      }

      JsonNode died = call(client, "fx__die");
      channels.add(died.toString());
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  call(client, "get_skill_info", "skill_name", "fx")
                      .toString()
                      .contains("MCP_BRIDGE_CRASHED"));
      JsonNode info = call(client, "get_skill_info", "skill_name", "fx");
      channels.add(info.toString());
      assertThat(info.path("structuredContent").path("diagnostics").toString())
          .as("the crash diagnostic quotes the child's stderr, masked")
          .contains("dying; token=" + MASK);
      channels.add(server.stderr());
    }
    String auditLines = Files.readString(audit);
    channels.add(auditLines);
    assertThat(auditLines).contains("fx__token").contains("fx__leak");
    for (String channel : channels) {
      assertThat(channel).doesNotContain(PLANTED);
    }
  }

  private static JsonNode call(RawMcpClient client, String tool, String... keyValues)
      throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    ObjectNode args = params.putObject("arguments");
    for (int i = 0; i < keyValues.length; i += 2) {
      args.put(keyValues[i], keyValues[i + 1]);
    }
    return client.call(params);
  }
}
