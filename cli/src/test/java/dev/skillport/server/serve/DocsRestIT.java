package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.testsupport.LaunchedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code curl} transcript of {@code docs/rest.md} (a block noted {@code curl transcript}) runs
 * against {@code bin/skillport serve --http --no-bundled --skills samples/skills}: each {@code $
 * curl} line, its address pointed at the launched server, prints exactly what the page shows after
 * it. With {@code -Dskillport.docs.update=true} the page is rewritten with what they print.
 */
class DocsRestIT {
  private static final Path REPO =
      Path.of(System.getProperty("skillport.repo", "..")).toAbsolutePath().normalize();
  private static final String SHOWN = "http://127.0.0.1:8765";
  private static final Pattern BLOCK =
      Pattern.compile("(?ms)^<!-- curl transcript -->\\n```\\n(.*?)^```$");

  @TempDir Path home;

  @Test
  void restPage_curlTranscriptPrintsWhatThePageShows() throws Exception {
    Path page = REPO.resolve("docs/rest.md");
    String text = Files.readString(page, StandardCharsets.UTF_8);
    Matcher m = BLOCK.matcher(text);
    assertThat(m.find()).as("docs/rest.md has a curl transcript").isTrue();
    String block = m.group(1);
    StringBuilder actual = new StringBuilder();
    int run = 0;
    try (LaunchedServer server =
        LaunchedServer.start(
            home,
            "--no-watch",
            "--no-bundled",
            "--skills",
            REPO.resolve("samples/skills").toString())) {
      String base = "http://127.0.0.1:" + server.uri().getPort();
      for (String step : block.split("(?m)^(?=\\$ )")) {
        String[] lines = step.split("\n", 2);
        assertThat(lines[0]).as("a step runs curl").startsWith("$ curl ");
        String printed = curl(lines[0].substring(2).replace(SHOWN, base)).strip();
        actual.append(lines[0]).append('\n');
        if (!printed.isEmpty()) {
          actual.append(printed).append('\n');
        }
        if (!Boolean.getBoolean("skillport.docs.update")) {
          String expected = lines.length > 1 ? lines[1].strip() : "";
          assertThat(printed).as("docs/rest.md: %s", lines[0]).isEqualTo(expected);
        }
        run++;
      }
    }
    if (Boolean.getBoolean("skillport.docs.update")) {
      Files.writeString(page, text.replace(block, actual.toString()), StandardCharsets.UTF_8);
    }
    assertThat(run).as("curl steps").isGreaterThanOrEqualTo(3);
  }

  private static String curl(String command) throws Exception {
    Process process = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    byte[] out = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(command).isTrue();
    return new String(out, StandardCharsets.UTF_8);
  }
}
