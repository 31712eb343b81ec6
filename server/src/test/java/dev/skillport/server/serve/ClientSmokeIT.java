package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared TypeScript-SDK smoke client ({@code ../shared/tools/client-smoke.mjs}) against the
 * real server, over Streamable HTTP and over stdio (the shaded jar as a child process). The SDK is
 * installed from the npm registry into the build folder on first use.
 */
class ClientSmokeIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Path script;
  private static Path samples;

  @BeforeAll
  static void install() throws Exception {
    Path shared = Path.of(System.getProperty("skillport.shared", "../../shared")).toAbsolutePath();
    samples = SamplesHttpServer.samples();
    Path dir =
        Path.of(System.getProperty("skillport.buildDir", "target"), "client-smoke")
            .toAbsolutePath();
    Files.createDirectories(dir);
    script = dir.resolve("client-smoke.mjs");
    Files.copy(
        shared.resolve("tools/client-smoke.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
    if (!Files.isDirectory(dir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      Result npm =
          run(
              List.of(
                  "npm",
                  "install",
                  "--no-audit",
                  "--no-fund",
                  "--loglevel=error",
                  "--prefix",
                  dir.toString(),
                  "@modelcontextprotocol/sdk@1.32.2"),
              dir);
      assertThat(npm.exit()).as(npm.output()).isZero();
    }
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> command, Path dir)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("client-smoke", ".out");
    try {
      Process p =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(false)
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

  private static JsonNode smoke(List<String> target, String tool, String args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                "node", script.toString(), "--tool", tool, "--args", args, "--timeout", "60000"));
    command.addAll(target);
    Result r = run(command, script.getParent());
    assertThat(r.exit()).as(r.output()).isZero();
    return JSON.readTree(r.output());
  }

  @Test
  void http_listsAndCallsLoadSkill() throws Exception {
    try (SamplesHttpServer http = SamplesHttpServer.start()) {
      JsonNode summary =
          smoke(
              List.of("--url", http.uri().toString()),
              "load_skill",
              "{\"skill_name\":\"file-stats\"}");
      assertThat(summary.toString()).contains("__skill__file-stats").contains("search_skills");
    }
  }

  @Test
  void stdio_listsAndCallsSearchSkills() throws Exception {
    Path jar =
        Path.of(System.getProperty("skillport.jar", "target/skillport.jar")).toAbsolutePath();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    JsonNode summary =
        smoke(
            List.of(
                "--",
                java,
                "-jar",
                jar.toString(),
                "serve",
                "--stdio",
                "--no-watch",
                "--skills",
                samples.toString()),
            "search_skills",
            "{\"query\":\"line count\"}");
    assertThat(summary.toString()).contains("file-stats");
  }
}
