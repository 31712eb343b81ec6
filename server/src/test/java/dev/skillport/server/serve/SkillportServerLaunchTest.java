package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.mcp.transport.StdioTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server launched without waiting for its catalog takes clients at once, and its first answers
 * already come from the whole catalog.
 */
class SkillportServerLaunchTest {
  // The handler the written skills name: a skill naming one no one registers is skipped.
  private static final Map<String, ToolHandler> BATCH_HANDLERS =
      Map.of("batch.run", invocation -> ToolResult.text("ran"));

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
            BATCH_HANDLERS,
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
    // 400 stubs and the core tools fit the default page: the first answer holds the whole catalog.
    assertThat(stubs).contains("__skill__batch-skill-000", "__skill__batch-skill-399");
    assertThat(list.path("result").has("nextCursor")).isFalse();
    assertThat(server.isReady()).isTrue();
    assertThat(server.catalogLoaded().get(1, TimeUnit.SECONDS).skills()).hasSize(SKILLS);
  }

  @Test
  void pageSize_configured_pagesToolsListAndEveryPageIsReached() throws Exception {
    writeSkills();
    ServeConfig config =
        new ServeConfig(
                List.of(SkillRoot.of(skills, Scope.REPO)),
                LoaderOptions.DEFAULTS,
                List.of(),
                BATCH_HANDLERS,
                Duration.ofSeconds(20),
                false)
            .withPageSize(150);
    server = SkillportServer.start(config, "test");
    StringBuilder session =
        new StringBuilder(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n");
    List<Integer> pageSizes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    String cursor = null;
    // Each round replays the session with one more page requested, following the cursors.
    for (int round = 0; round < 10; round++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new StdioTransport(
              server.mcp(),
              new ByteArrayInputStream(session.toString().getBytes(StandardCharsets.UTF_8)),
              out)
          .run();
      JsonNode last = null;
      for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
        JsonNode message = JSON.readTree(line);
        if (message.path("id").asInt() == 2 + round) {
          last = message;
        }
      }
      assertThat(last).as("the answer to page " + (round + 1)).isNotNull();
      JsonNode tools = last.path("result").path("tools");
      pageSizes.add(tools.size());
      tools.forEach(t -> names.add(t.path("name").asText()));
      cursor = last.path("result").path("nextCursor").asText(null);
      if (cursor == null) {
        break;
      }
      session
          .append("{\"jsonrpc\":\"2.0\",\"id\":")
          .append(3 + round)
          .append(",\"method\":\"tools/list\",\"params\":{\"cursor\":\"")
          .append(cursor)
          .append("\"}}\n");
    }

    assertThat(cursor).as("the last page has no cursor").isNull();
    assertThat(pageSizes).hasSizeGreaterThan(2);
    assertThat(pageSizes.subList(0, pageSizes.size() - 1)).allMatch(n -> n == 150);
    assertThat(pageSizes.get(pageSizes.size() - 1)).isBetween(1, 150);
    assertThat(names).doesNotHaveDuplicates().contains("__skill__batch-skill-399");
  }

  @Test
  void pageSize_belowOne_isRefused() {
    ServeConfig config = ServeConfig.of(List.of());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> config.withPageSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pageSize");
  }
}
