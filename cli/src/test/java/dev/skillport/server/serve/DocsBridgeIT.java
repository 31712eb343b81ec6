package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.LaunchedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge example of {@code docs/writing-skills.md} works as the page says: a server started by
 * {@code bin/skillport} with {@code --trust-bridge calculator} starts the skill's MCP server when
 * the skill loads, and each JSON block noted {@code <!-- bridge result of TOOL ARGUMENTS -->} is
 * the {@code tools/call} result it answers.
 */
class DocsBridgeIT {
  private static final Path REPO =
      Path.of(System.getProperty("skillport.repo", "..")).toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NOTED =
      Pattern.compile(
          "(?ms)^<!-- bridge result of (\\S+) (\\{[^\\n]*\\}) -->\\n```json\\n(.*?)^```$");

  @TempDir Path home;

  @Test
  void writingSkills_bridgeResultsShownAreTheServersAnswers() throws Exception {
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            REPO.resolve("samples/guide").toString(),
            "--trust-bridge",
            "calculator")) {
      PlainMcpClient client = new PlainMcpClient(server.uri()).open();
      JsonNode loaded = client.call("load_skill", JSON.readTree("{\"skill_name\":\"calculator\"}"));
      assertThat(loaded.path("isError").asBoolean(false)).as(loaded.toString()).isFalse();

      String page =
          Files.readString(REPO.resolve("docs/writing-skills.md"), StandardCharsets.UTF_8);
      Matcher m = NOTED.matcher(page);
      int checked = 0;
      while (m.find()) {
        JsonNode result = client.call(m.group(1), JSON.readTree(m.group(2)));
        assertThat(JSON.readTree(m.group(3)))
            .as("docs/writing-skills.md: bridge result of %s %s", m.group(1), m.group(2))
            .isEqualTo(result);
        checked++;
      }
      assertThat(checked).as("bridge results shown").isPositive();
    }
  }
}
