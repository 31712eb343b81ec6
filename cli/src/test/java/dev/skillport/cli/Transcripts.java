package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

/**
 * Runs the shell transcripts of a page: each {@code $ bin/skillport ARGS} line runs in-process in
 * the repository folder, and what follows it up to the next {@code $ } line is its exact stdout.
 */
final class Transcripts {
  private static final String LAUNCHER = "$ bin/skillport ";

  private Transcripts() {}

  /** The block as it should read: each command followed by what it prints now. */
  static String actual(Path repo, MarkdownPage.Block block) {
    StringBuilder out = new StringBuilder();
    for (String step : block.body().split("(?m)^(?=\\$ )")) {
      String command = step.split("\n", 2)[0];
      String[] args = command.substring(LAUNCHER.length()).trim().split(" +");
      String printed = CliRun.execute(repo, args).out().strip();
      out.append(command).append('\n');
      if (!printed.isEmpty()) {
        out.append(printed).append('\n');
      }
    }
    return out.toString();
  }

  static void assertPrintsItsOutput(Path repo, MarkdownPage.Block block, String where) {
    for (String step : block.body().split("(?m)^(?=\\$ )")) {
      String[] lines = step.split("\n", 2);
      assertThat(lines[0])
          .as("%s: a transcript runs bin/skillport only", where)
          .startsWith(LAUNCHER);
      String[] args = lines[0].substring(LAUNCHER.length()).trim().split(" +");
      String expected = lines.length > 1 ? lines[1] : "";
      CliRun run = CliRun.execute(repo, args);
      assertThat(run.out().strip()).as("%s: %s", where, lines[0]).isEqualTo(expected.strip());
    }
  }
}
