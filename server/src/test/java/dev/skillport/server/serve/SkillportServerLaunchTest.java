package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.skill.Scope;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillRoot;
import dev.skillport.mcp.transport.StdioTransport;
import dev.skillport.server.app.HandlerRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server launched without waiting for its catalog takes clients at once, and its first answers
 * already come from the whole catalog.
 */
class SkillportServerLaunchTest {
  private static final int SKILLS = 400;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path skills;
  private SkillportServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void writeSkills() throws IOException {
    for (int i = 0; i < SKILLS; i++) {
      String name = String.format(Locale.ROOT, "batch-skill-%03d", i);
      Path dir = Files.createDirectories(skills.resolve(name));
      Files.writeString(
          dir.resolve("SKILL.md"),
          "---\nname: "
              + name
              + "\ndescription: Batch skill number "
              + i
              + "\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\nBody.\n");
      Files.writeString(
          dir.resolve("tools.yaml"),
          "tools:\n  - name: run_"
              + i
              + "\n    description: Run it\n    handler: batch.run\n"
              + "    input_schema:\n      type: object\n      properties: {n: {type: integer}}\n");
    }
  }

  @Test
  void launch_toolsListSentAtOnce_isAnsweredFromTheWholeCatalog() throws Exception {
    writeSkills();
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(skills, Scope.REPO)),
            LoaderOptions.DEFAULTS,
            List.of(),
            new HandlerRegistry(),
            Duration.ofSeconds(20),
            false);
    server = SkillportServer.launch(config, "test", List.of());
    String session =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    // The whole session is read at once, long before 400 skills are loaded; the end of input
    // waits for the answers.
    new StdioTransport(
            server.mcp(), new ByteArrayInputStream(session.getBytes(StandardCharsets.UTF_8)), out)
        .run();

    JsonNode list = null;
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      JsonNode message = JSON.readTree(line);
      if (message.path("id").asInt() == 2) {
        list = message;
      }
    }
    assertThat(list).as("the tools/list answer").isNotNull();
    List<String> stubs = new ArrayList<>();
    list.path("result").path("tools").forEach(t -> stubs.add(t.path("name").asText()));
    assertThat(stubs).contains("__skill__batch-skill-000", "__skill__batch-skill-050");
    assertThat(list.path("result").path("nextCursor").isTextual()).isTrue();
    assertThat(server.isReady()).isTrue();
    assertThat(server.catalogLoaded().get(1, TimeUnit.SECONDS).skills()).hasSize(SKILLS);
  }
}
