package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.skill.Scope;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillRoot;
import dev.skillport.server.app.HandlerRegistry;
import dev.skillport.server.transport.StreamableHttpTransport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
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

  @TempDir Path skills;
  private SkillportServer server;
  private StreamableHttpTransport http;

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
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

  private SkillportServer launch() throws IOException {
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(skills, Scope.REPO)),
            LoaderOptions.DEFAULTS,
            List.of(),
            new HandlerRegistry(),
            Duration.ofSeconds(20),
            false);
    return SkillportServer.launch(config, "test", List.of());
  }

  @Test
  void launch_firstToolsList_listsEverySkillOfTheCatalog() throws Exception {
    writeSkills();
    server = launch();
    http =
        StreamableHttpTransport.builder(server.mcp())
            .host("127.0.0.1")
            .port(0)
            .readiness(server::isReady)
            .build();
    http.start();

    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + http.port())
            .endpoint("/mcp")
            .build();
    try (McpSyncClient client =
        McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build()) {
      client.initialize();
      List<String> stubs = new ArrayList<>();
      String cursor = null;
      do {
        McpSchema.ListToolsResult page = client.listTools(cursor);
        page.tools().stream()
            .map(McpSchema.Tool::name)
            .filter(name -> name.startsWith("__skill__"))
            .forEach(stubs::add);
        cursor = page.nextCursor();
      } while (cursor != null);

      assertThat(stubs).hasSize(SKILLS).contains("__skill__batch-skill-000");
    }
    assertThat(server.isReady()).isTrue();
    assertThat(server.catalogLoaded().get(1, TimeUnit.SECONDS).skills()).hasSize(SKILLS);
  }
}
