package dev.skillport.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bridged servers that misbehave, on one server started with {@code bin/skillport}: one that never
 * answers the handshake, one that floods stdout, one that writes a 20 MiB line, one that answers
 * with broken JSON, one whose tool list nests 5000 levels, one with 10,000 tools and one whose
 * schemas are bombs. Each gets a clear diagnostic and a clear refusal or a bounded mount; a script
 * skill beside them keeps working and the server keeps answering.
 */
class HostileBridgesIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;

  @Test
  void misbehavingServers_eachGetAClearDiagnostic_andHurtNothingElse() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    // The one that never answers fails on a short handshake deadline; the others fail on what
    // they write, long before theirs (an answer that cannot be read fails its request at once).
    BridgeFixtures.fixture(skills, "silent", "silent", "timeout_secs: 3\n");
    for (String mode : List.of("flood", "huge", "malformed", "abyss")) {
      BridgeFixtures.fixture(skills, mode, mode, "timeout_secs: 30\n");
    }
    BridgeFixtures.fixture(skills, "many", "tools=10000", "timeout_secs: 30\n");
    BridgeFixtures.fixture(skills, "bomb", "bomb", "timeout_secs: 30\n");
    Path healthy = Files.createDirectories(skills.resolve("healthy/scripts"));
    Files.writeString(
        skills.resolve("healthy/SKILL.md"),
        "---\nname: healthy\ndescription: A script skill beside the bridges.\n---\nSay ok.\n");
    Files.writeString(healthy.resolve("say_ok.sh"), "#!/bin/bash\necho ok\n");

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--trust-bridge",
            "silent,flood,huge,malformed,abyss,many,bomb")) {
      RawMcpClient client = new RawMcpClient(server.uri());
      assertThat(call(client, "load_skill", "skill_name", "healthy").path("isError").asBoolean())
          .isFalse();

      expectStartFailure(client, "silent", "did not answer initialize within 3000 ms");
      expectStartFailure(client, "flood", "lines in a row that are not JSON-RPC messages");
      expectStartFailure(client, "huge", "longer than 16777216 bytes");
      expectStartFailure(client, "malformed", "not a JSON-RPC message");
      expectStartFailure(client, "abyss", "could not be read: Document nesting depth");
      assertThat(info(client, "flood")).contains("MCP_BRIDGE_PROTOCOL");
      assertThat(info(client, "malformed")).contains("MCP_BRIDGE_PROTOCOL");
      assertThat(info(client, "abyss")).contains("MCP_BRIDGE_PROTOCOL");

      long start = System.nanoTime();
      JsonNode many = call(client, "load_skill", "skill_name", "many");
      assertThat(many.path("isError").asBoolean()).as(many.toString()).isFalse();
      assertThat(many.path("structuredContent").path("tool_count").asInt()).isEqualTo(1000);
      assertThat(info(client, "many"))
          .contains("MCP_BRIDGE_TOOL_DROPPED")
          .contains("tools/list listed more than 2000 entries; the rest were not read")
          .contains("1000 more tools were left out: at most 1000 tools");
      assertThat(call(client, "many__t999").toString()).contains("called t999");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));

      JsonNode bomb = call(client, "load_skill", "skill_name", "bomb");
      assertThat(bomb.path("structuredContent").path("registered_tools").toString())
          .contains("bomb__ok", "bomb__has_space")
          .doesNotContain("bomb__deep", "bomb__huge", "bomb__not_object");
      assertThat(info(client, "bomb"))
          .contains("tool 'deep' was left out: its schema nests deeper than 32 levels")
          .contains("tool 'huge' was left out: its schema is larger than 64 KiB")
          .contains("tool 'not_object' was left out: its input schema is not an object schema");
      JsonNode tools = client.result("tools/list", JSON.createObjectNode());
      for (JsonNode t : tools.path("tools")) {
        if (t.path("name").asText().equals("bomb__ok")) {
          String description = t.path("description").asText();
          assertThat(description).startsWith("[third-party:").doesNotContain("\u0007");
          assertThat(description.length()).isLessThan(1100);
        }
      }

      JsonNode ok = call(client, "say_ok");
      assertThat(ok.path("isError").asBoolean()).as(ok.toString()).isFalse();
      assertThat(ok.toString()).contains("ok");
      assertThat(server.isAlive()).isTrue();
    }
  }

  private static void expectStartFailure(RawMcpClient client, String skill, String why)
      throws Exception {
    long start = System.nanoTime();
    JsonNode loaded = call(client, "load_skill", "skill_name", skill);
    assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isTrue();
    assertThat(loaded.toString()).as(skill).contains("MCP_BRIDGE_START_FAILED").contains(why);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as(skill)
        .isLessThan(Duration.ofSeconds(15));
    assertThat(info(client, skill)).contains("MCP_BRIDGE_START_FAILED");
  }

  private static String info(RawMcpClient client, String skill) throws Exception {
    return call(client, "get_skill_info", "skill_name", skill)
        .path("structuredContent")
        .path("diagnostics")
        .toString();
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
