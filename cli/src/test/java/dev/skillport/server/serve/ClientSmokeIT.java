package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.InteropTools;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The project's smoke client ({@code interop/smoke-client.mjs}) on the official TypeScript SDK 1.x
 * and 2.x against servers started with {@code bin/skillport}, over Streamable HTTP and over stdio
 * (the client starts the launcher as its child process, as MCP hosts do).
 */
class ClientSmokeIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private JsonNode smoke(int sdk, List<String> args) throws Exception {
    return JSON.readTree(run(sdk, args).stdout());
  }

  private ExternalCommand.Outcome run(int sdk, List<String> args) {
    ExternalCommand.Outcome run =
        ExternalCommand.of(InteropTools.smokeClient(sdk, args.toArray(String[]::new)))
            .environment(InteropTools.environment())
            // What a stdio server the client starts inherits: the test's home, the build's jar.
            .environment(LaunchedServer.environment(home))
            // The server's log reaches the client's stderr, which inherits it.
            .environment(Map.of("SKILLPORT_LOG_LEVEL", "info"))
            .timeout(Duration.ofMinutes(3))
            .run();
    assertThat(run.exit()).as(run.toString()).isZero();
    return run;
  }

  private static List<String> searchOverStdio() {
    return List.of(
        "--call",
        "search_skills",
        "--args",
        "{\"query\":\"line count\"}",
        "--",
        LaunchedServer.launcher().toString(),
        "serve",
        "--stdio",
        "--no-watch",
        "--skills",
        SamplesHttpServer.samples().toString());
  }

  @ParameterizedTest(name = "TS SDK {0}.x")
  @ValueSource(ints = {1, 2})
  void http_loadSkill_listsTheSkillsToolsAfterListChanged(int sdk) throws Exception {
    try (LaunchedServer http = SamplesHttpServer.start(home)) {
      JsonNode summary =
          smoke(
              sdk,
              List.of(
                  "--url",
                  http.uri().toString(),
                  "--call",
                  "load_skill",
                  "--args",
                  "{\"skill_name\":\"file-stats\"}"));

      assertThat(summary.path("serverInfo").path("name").asText()).isEqualTo("skillport");
      assertThat(summary.path("tools").toString())
          .contains("\"__skill__file-stats\"", "\"search_skills\"")
          .doesNotContain("\"count_lines\"");
      assertThat(summary.path("notifications").path("notifications/tools/list_changed").asInt())
          .isPositive();
      assertThat(summary.path("toolsAfterCalls").toString())
          .contains("\"count_lines\"")
          .doesNotContain("\"__skill__file-stats\"");
    }
  }

  @ParameterizedTest(name = "TS SDK {0}.x")
  @ValueSource(ints = {1, 2})
  void stdio_searchSkills_findsTheSkillByItsDescription(int sdk) throws Exception {
    JsonNode summary = smoke(sdk, searchOverStdio());

    assertThat(summary.path("calls").path(0).path("isError").asBoolean()).isFalse();
    assertThat(summary.path("calls").path(0).path("content").toString()).contains("file-stats");
  }
}
