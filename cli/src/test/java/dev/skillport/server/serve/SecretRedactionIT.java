package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets planted in skill files and in the server's environment never leave a server started with
 * {@code bin/skillport}: every output channel is collected (each {@code skill://} resource read,
 * the Skills extension's entries, {@code get_skill_info}, the diagnostics tool, tool results and
 * tool errors, prompts, the server's log on stderr, the audit file) and searched for each planted
 * value, while the redacted views stay consistent (a digest is the served bytes' digest).
 */
class SecretRedactionIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Written into mcp.yaml under a secret name, as the server must tell authors not to. */
  private static final String FILE_SECRET = "sk-file-planted-7f3a9c2e1b";

  /** Written into SKILL.md metadata under {@code api_key}. */
  private static final String FRONTMATTER_SECRET = "fm-planted-4d8e2a6c0f";

  /** Written into a JSON file of the skill under {@code client_secret}. */
  private static final String JSON_SECRET = "json-planted-93b1c7d5e2";

  /** Written into a Markdown note as {@code export SERVICE_TOKEN=...}. */
  private static final String NOTE_SECRET = "note-planted-62f0a8b4c1";

  /** The value of MY_SERVICE in the server's environment, marked with --secret MY_SERVICE. */
  private static final String ENV_SECRET = "env-planted-1c5e9a3f7d";

  /** The value of GITHUB_TOKEN in the server's environment: secret by its name alone. */
  private static final String NAMED_ENV_SECRET = "ghp-planted-8a2c4e6b0d";

  private static final List<String> PLANTED =
      List.of(
          FILE_SECRET, FRONTMATTER_SECRET, JSON_SECRET, NOTE_SECRET, ENV_SECRET, NAMED_ENV_SECRET);

  @TempDir Path home;
  @TempDir Path tmp;

  @Test
  void plantedSecrets_appearInNoOutputChannel() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    writeBridgeSkill(skills.resolve("leaky-bridge"));
    writeScriptSkill(skills.resolve("env-echo"));
    Path audit = tmp.resolve("audit.jsonl");
    Map<String, String> env =
        Map.of(
            "MY_SERVICE", ENV_SECRET,
            "GITHUB_TOKEN", NAMED_ENV_SECRET,
            "SKILLPORT_LOG_LEVEL", "debug");

    List<String> channels = new ArrayList<>();
    String stderr;
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            env,
            "--no-watch",
            "--no-bundled",
            "--skills",
            skills.toString(),
            "--secret",
            "MY_SERVICE",
            "--script-env",
            "MY_SERVICE,GITHUB_TOKEN",
            "--audit-log",
            audit.toString())) {
      RawMcpClient client = new RawMcpClient(server.uri());

      JsonNode list = client.result("resources/list", JSON.createObjectNode());
      channels.add(list.toString());
      JsonNode mcpYaml = null;
      JsonNode skillMd = null;
      for (JsonNode r : list.path("resources")) {
        String uri = r.path("uri").asText();
        if (!uri.startsWith("skill://")) {
          continue;
        }
        JsonNode read = client.result("resources/read", JSON.createObjectNode().put("uri", uri));
        channels.add(read.toString());
        if (uri.equals("skill://leaky-bridge/mcp.yaml")) {
          mcpYaml = read.path("contents").get(0);
        }
        if (uri.equals("skill://leaky-bridge/SKILL.md")) {
          skillMd = read.path("contents").get(0);
        }
      }
      assertThat(mcpYaml).as("mcp.yaml is served").isNotNull();
      assertThat(mcpYaml.path("text").asText())
          .contains("API_TOKEN: \"[REDACTED]\"")
          .contains("FROM_ENV: ${MY_SERVICE}")
          .contains("command: node");

      JsonNode skillsList = client.result("skills/list", JSON.createObjectNode());
      channels.add(skillsList.toString());
      JsonNode entry = null;
      for (JsonNode s : skillsList.path("skills")) {
        if (s.path("uri").asText().equals("skill://leaky-bridge/SKILL.md")) {
          entry = s;
        }
      }
      assertThat(entry).as(skillsList.toString()).isNotNull();
      assertThat(entry.path("frontmatter").path("metadata").path("vendor").path("api_key").asText())
          .isEqualTo("[REDACTED]");
      JsonNode got =
          client.result(
              "skills/get", JSON.createObjectNode().put("uri", "skill://leaky-bridge/SKILL.md"));
      channels.add(got.toString());
      for (JsonNode file : entry.path("resources")) {
        if (file.path("uri").asText().equals("skill://leaky-bridge/mcp.yaml")) {
          byte[] served = mcpYaml.path("text").asText().getBytes(StandardCharsets.UTF_8);
          assertThat(file.path("digest").asText()).isEqualTo(sha256(served));
          assertThat(file.path("size").asLong()).isEqualTo(served.length);
        }
        if (file.path("uri").asText().equals("skill://leaky-bridge/SKILL.md")) {
          byte[] served = skillMd.path("text").asText().getBytes(StandardCharsets.UTF_8);
          assertThat(file.path("digest").asText()).isEqualTo(sha256(served));
        }
      }

      for (String skill : List.of("leaky-bridge", "env-echo")) {
        channels.add(call(client, "get_skill_info", "skill_name", skill).toString());
        channels.add(call(client, "load_skill", "skill_name", skill).toString());
      }
      JsonNode info = call(client, "get_skill_info", "skill_name", "env-echo");
      assertThat(info.path("structuredContent").path("diagnostics").toString())
          .as("the layer diagnostic quotes the (masked) value")
          .contains("[REDACTED]");

      JsonNode shown = call(client, "show_env");
      channels.add(shown.toString());
      assertThat(shown.path("isError").asBoolean()).as(shown.toString()).isFalse();
      assertThat(shown.toString()).contains("service=[REDACTED] github=[REDACTED]");
      JsonNode failed = call(client, "fail_env");
      channels.add(failed.toString());
      assertThat(failed.path("isError").asBoolean()).as(failed.toString()).isTrue();
      assertThat(failed.toString()).contains("[REDACTED]");

      channels.add(client.result("prompts/list", JSON.createObjectNode()).toString());
      channels.add(client.result("tools/list", JSON.createObjectNode()).toString());
      stderr = server.stderr();
    }
    channels.add(stderr);
    channels.add(Files.readString(audit));
    assertThat(Files.readString(audit)).contains("show_env").contains("fail_env");

    for (String channel : channels) {
      for (String secret : PLANTED) {
        assertThat(channel).as("a channel shows %s", secret).doesNotContain(secret);
      }
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

  private static String sha256(byte[] bytes) throws Exception {
    return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  private static void writeBridgeSkill(Path dir) throws Exception {
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\n"
            + "name: leaky-bridge\n"
            + "description: A bridge whose author wrote a token into its files.\n"
            + "metadata:\n"
            + "  dcc-mcp:\n"
            + "    mcp: mcp.yaml\n"
            + "  vendor:\n"
            + "    api_key: "
            + FRONTMATTER_SECRET
            + "\n"
            + "---\n"
            + "# Leaky bridge\n\nSee notes.md.\n");
    Files.writeString(
        dir.resolve("mcp.yaml"),
        "command: node\n"
            + "args: [server.js]\n"
            + "trust: explicit\n"
            + "env:\n"
            + "  API_TOKEN: \""
            + FILE_SECRET
            + "\"\n"
            + "  FROM_ENV: ${MY_SERVICE}\n");
    Files.writeString(
        dir.resolve("config.json"),
        "{\n  \"client_secret\": \"" + JSON_SECRET + "\",\n  \"region\": \"eu\"\n}\n");
    Files.writeString(
        dir.resolve("notes.md"),
        "To run by hand:\n\n    export SERVICE_TOKEN=" + NOTE_SECRET + "\n");
  }

  private static void writeScriptSkill(Path dir) throws Exception {
    Path scripts = Files.createDirectories(dir.resolve("scripts"));
    // The layer value quotes a secret the loader reports back in a diagnostic.
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\n"
            + "name: env-echo\n"
            + "description: Scripts that print what the server passed them.\n"
            + "metadata:\n"
            + "  dcc-mcp:\n"
            + "    layer: "
            + FILE_SECRET
            + "\n"
            + "---\n"
            + "Prints its environment.\n");
    Files.writeString(
        scripts.resolve("show_env.sh"),
        "#!/bin/bash\necho \"service=$MY_SERVICE github=$GITHUB_TOKEN\"\n");
    Files.writeString(
        scripts.resolve("fail_env.sh"), "#!/bin/bash\necho \"token is $MY_SERVICE\" >&2\nexit 3\n");
  }
}
