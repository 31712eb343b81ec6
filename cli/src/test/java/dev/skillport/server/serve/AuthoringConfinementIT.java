package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.runtime.jobs.RawMcpClient;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled skill-authoring tools of a server started with {@code bin/skillport} act only inside
 * its skill roots, or inside the folders {@code --authoring-dir} names: elsewhere they neither read
 * nor write, and say the same whether or not a path exists.
 */
class AuthoringConfinementIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path tmp;

  private static JsonNode call(RawMcpClient client, String tool, String... keyValues)
      throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    ObjectNode args = params.putObject("arguments");
    for (int i = 0; i < keyValues.length; i += 2) {
      args.put(keyValues[i], keyValues[i + 1]);
    }
    return client.call(params);
  }

  private static RawMcpClient authoringClient(LaunchedServer server) throws Exception {
    RawMcpClient client = new RawMcpClient(server.uri());
    JsonNode loaded = call(client, "load_skill", "skill_name", "skill-authoring");
    assertThat(loaded.path("isError").asBoolean()).as(loaded.toString()).isFalse();
    return client;
  }

  @Test
  void authoringTools_actInTheSkillRootsOnly() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Path secret = Files.createDirectories(outside.resolve("secret"));
    Files.writeString(secret.resolve("SKILL.md"), "---\nname: secret\napi-key: s3cr3t\n---\n");
    Files.createSymbolicLink(skills.resolve("escape"), outside);

    try (LaunchedServer server =
        LaunchedServer.start(home, "--no-watch", "--skills", skills.toString())) {
      RawMcpClient client = authoringClient(server);

      for (String path :
          new String[] {
            secret.toString(),
            secret.resolve("SKILL.md").toString(),
            outside.resolve("missing").toString(),
            skills.resolve("escape/secret").toString(),
            skills.resolve("../outside/secret").toString(),
            home.resolve(".ssh").toString()
          }) {
        JsonNode refused = call(client, "validate_skill", "path", path);
        assertThat(refused.path("isError").asBoolean()).as(path).isTrue();
        assertThat(refused.toString())
            .as(path)
            .contains("outside the folders the skill-authoring tools may use")
            .doesNotContain("s3cr3t")
            .doesNotContain("api-key")
            .doesNotContain("does not exist");
      }

      JsonNode writeOut = call(client, "new_skill", "name", "intruder", "dir", outside.toString());
      JsonNode writeViaLink =
          call(client, "new_skill", "name", "intruder", "dir", skills.resolve("escape").toString());
      assertThat(writeOut.path("isError").asBoolean()).isTrue();
      assertThat(writeViaLink.path("isError").asBoolean()).isTrue();
      assertThat(outside.resolve("intruder")).doesNotExist();

      JsonNode created = call(client, "new_skill", "name", "fresh", "dir", skills.toString());
      assertThat(created.path("isError").asBoolean()).as(created.toString()).isFalse();
      assertThat(skills.resolve("fresh/SKILL.md")).isRegularFile();
      JsonNode validated = call(client, "validate_skill", "path", "fresh");
      assertThat(validated.path("structuredContent").path("success").asBoolean())
          .as(validated.toString())
          .isTrue();
    }
  }

  @Test
  void authoringDir_replacesTheSkillRoots() throws Exception {
    Path skills = Files.createDirectories(tmp.resolve("skills"));
    Path work = Files.createDirectories(tmp.resolve("work"));

    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--skills",
            skills.toString(),
            "--authoring-dir",
            work.toString())) {
      RawMcpClient client = authoringClient(server);

      JsonNode inRoot = call(client, "new_skill", "name", "one", "dir", skills.toString());
      JsonNode inWork = call(client, "new_skill", "name", "two", "dir", work.toString());

      assertThat(inRoot.path("isError").asBoolean()).isTrue();
      assertThat(inRoot.toString()).contains(work.toString());
      assertThat(skills.resolve("one")).doesNotExist();
      assertThat(inWork.path("isError").asBoolean()).as(inWork.toString()).isFalse();
      assertThat(work.resolve("two/SKILL.md")).isRegularFile();
    }
  }
}
