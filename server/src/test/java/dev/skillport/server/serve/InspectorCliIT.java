package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The MCP Inspector CLI ({@code @modelcontextprotocol/inspector} 2.12.0, on Node 22) lists and
 * reads our skills, prompts and resources from the real server on 127.0.0.1. Node 22 and the
 * Inspector are installed from the npm registry into the same cache the conformance runner uses.
 */
class InspectorCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

  private static Path node;
  private static Path inspector;
  private static Path samples;
  private static SamplesHttpServer http;

  @BeforeAll
  static void start() throws Exception {
    String cache = System.getenv("XDG_CACHE_HOME");
    Path home =
        System.getenv("SKILLPORT_INTEROP_HOME") != null
            ? Path.of(System.getenv("SKILLPORT_INTEROP_HOME"))
            : (cache != null ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("skillport-interop");
    node = install(home.resolve("node22"), "node@22").resolve("node_modules/node/bin/node");
    inspector =
        install(home.resolve("inspector-2.12.0"), INSPECTOR)
            .resolve(
                "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    assertThat(node).isRegularFile();
    assertThat(inspector).isRegularFile();

    samples = SamplesHttpServer.samples();
    http = SamplesHttpServer.start("image-tools");
  }

  @AfterAll
  static void stop() {
    if (http != null) {
      http.close();
    }
  }

  private static Path install(Path dir, String pkg) throws IOException, InterruptedException {
    if (!Files.exists(dir.resolve(".done"))) {
      Files.createDirectories(dir);
      Result r =
          run(
              List.of(
                  "npm",
                  "install",
                  "--no-audit",
                  "--no-fund",
                  "--loglevel=error",
                  "--prefix",
                  dir.toString(),
                  pkg));
      assertThat(r.exit()).as(r.output()).isZero();
      Files.writeString(dir.resolve(".done"), pkg);
    }
    return dir;
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> command) throws IOException, InterruptedException {
    Path out = Files.createTempFile("inspector", ".out");
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      p.getOutputStream().close();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        return new Result(-1, "timed out");
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  private static JsonNode inspect(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                node.toString(),
                inspector.toString(),
                "--cli",
                "--format",
                "json",
                http.uri().toString()));
    command.addAll(List.of(args));
    Result r = run(command);
    assertThat(r.exit()).as(r.output()).isZero();
    return JSON.readTree(r.output()).path("result");
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
