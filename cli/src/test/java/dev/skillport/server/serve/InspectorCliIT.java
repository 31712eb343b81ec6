package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Inspector CLI ({@code @modelcontextprotocol/inspector} 2.12.0, on Node 22) lists and
 * reads our skills, prompts and resources from a server started with {@code bin/skillport} on
 * 127.0.0.1; Node and the Inspector come from the interop cache.
 */
class InspectorCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INSPECTOR = "inspector@2.12.0";

  // The Inspector keeps its settings under ~/.mcp-inspector: a home of its own for this test.
  @TempDir static Path inspectorHome;

  @TempDir static Path home;
  private static Path samples;
  private static LaunchedServer http;

  @BeforeAll
  static void start() throws Exception {
    samples = SamplesHttpServer.samples();
    http = SamplesHttpServer.start(home, "image-tools");
  }

  @AfterAll
  static void stop() {
    if (http != null) {
      http.close();
    }
  }

  private static JsonNode inspect(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("--cli", "--format", "json", http.uri().toString()));
    command.addAll(List.of(args));
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.command(INSPECTOR, command.toArray(String[]::new)))
            .environment(InteropTools.environment())
            .environment(Map.of("HOME", inspectorHome.toString()))
            .timeout(Duration.ofMinutes(3))
            .run();
    assertThat(run.exit()).as(run.toString()).isZero();
    return JSON.readTree(run.stdout()).path("result");
  }

  @Test
  void skillsList_listsEverySampleWithDigestsOfTheFilesOnDisk() throws Exception {
    JsonNode skills = inspect("--method", "skills/list").path("skills");
    List<String> uris = new ArrayList<>();
    skills.forEach(s -> uris.add(s.path("uri").asText()));
    assertThat(uris).contains("skill://file-stats/SKILL.md", "skill://image-tools/SKILL.md");
    JsonNode fileStats = null;
    for (JsonNode s : skills) {
      if (s.path("uri").asText().equals("skill://file-stats/SKILL.md")) {
        fileStats = s;
      }
    }
    assertThat(fileStats.path("frontmatter").path("name").asText()).isEqualTo("file-stats");
    for (JsonNode entry : fileStats.path("resources")) {
      String relative = entry.path("uri").asText().substring("skill://file-stats/".length());
      byte[] bytes = Files.readAllBytes(samples.resolve("file-stats").resolve(relative));
      String digest =
          "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
      assertThat(entry.path("digest").asText()).as(relative).isEqualTo(digest);
      assertThat(entry.path("size").asLong()).isEqualTo(bytes.length);
    }
  }

  @Test
  void promptsListAndGet_renderTheLoadedSkillsPrompt() throws Exception {
    JsonNode list = inspect("--method", "prompts/list").path("prompts");
    assertThat(list.toString()).contains("describe_image");
    JsonNode prompt =
        inspect(
            "--method",
            "prompts/get",
            "--prompt-name",
            "describe_image",
            "--prompt-args",
            "path=/tmp/a.png",
            "audience=designers");
    String text = prompt.at("/messages/0/content/text").asText();
    assertThat(text).contains("\"/tmp/a.png\"").contains("audience: designers");
  }

  @Test
  void resourcesListAndRead_serveTheSkillFilesExactly() throws Exception {
    JsonNode list = inspect("--method", "resources/list").path("resources");
    assertThat(list.toString()).contains("skill://file-stats/SKILL.md");
    JsonNode read = inspect("--method", "resources/read", "--uri", "skill://file-stats/SKILL.md");
    assertThat(read.at("/contents/0/text").asText())
        .isEqualTo(
            Files.readString(samples.resolve("file-stats/SKILL.md"), StandardCharsets.UTF_8));
  }
}
