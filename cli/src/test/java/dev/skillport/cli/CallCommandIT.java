package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skillport call} through {@code bin/skillport}: in-process on the sample skills, and with
 * {@code --url} against a server the launcher started, which answers the same.
 */
class CallCommandIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "call-it-token-0123456789";

  @TempDir Path home;

  private static String samples() {
    return LaunchedServer.launcher().getParent().resolveSibling("samples/skills").toString();
  }

  @Test
  void call_inProcessAndOverUrl_printTheSameResult() throws Exception {
    ExternalCommand.Outcome local =
        LaunchedServer.command(
                home,
                "call",
                "file-stats__count_lines",
                "--skills",
                samples(),
                "--arg",
                "path=SKILL.md")
            .run();
    assertThat(local.exit()).as(local.toString()).isZero();

    try (LaunchedServer server =
        LaunchedServer.start(home, "--no-watch", "--skills", samples(), "--auth-token", TOKEN)) {
      ExternalCommand.Outcome remote =
          LaunchedServer.command(
                  home,
                  "call",
                  "file-stats__count_lines",
                  "--url",
                  server.uri().toString(),
                  "--auth-token",
                  TOKEN,
                  "--arg",
                  "path=SKILL.md")
              .run();
      ExternalCommand.Outcome unauthorized =
          LaunchedServer.command(
                  home,
                  "call",
                  "file-stats__count_lines",
                  "--url",
                  server.uri().toString(),
                  "--arg",
                  "path=SKILL.md")
              .run();
      ExternalCommand.Outcome unknown =
          LaunchedServer.command(
                  home,
                  "call",
                  "file-stats__nope",
                  "--url",
                  server.uri().toString(),
                  "--auth-token",
                  TOKEN)
              .run();

      assertThat(remote.exit()).as(remote.toString()).isZero();
      JsonNode counted = JSON.readTree(remote.stdout());
      assertThat(counted.path("lines").asInt()).isPositive();
      assertThat(counted).isEqualTo(JSON.readTree(local.stdout()));
      assertThat(unauthorized.exit()).as(unauthorized.toString()).isEqualTo(1);
      assertThat(unauthorized.stderr()).contains("Unauthorized");
      assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(1);
      assertThat(unknown.stderr()).contains("unknown tool: file-stats__nope");
    }
  }
}
