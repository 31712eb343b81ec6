package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.testsupport.ExternalCommand;
import dev.skillport.testsupport.LaunchedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ordinary mistakes when starting {@code bin/skillport serve}: each prints one line saying what to
 * do and exits 2 (the command line is wrong) or 1 (the machine is not as asked), without a stack
 * trace unless {@code --verbose}, and leaves nothing in the temp folder.
 */
class ServeStartupErrorsIT {
  @TempDir Path home;
  @TempDir Path tmp;
  @TempDir Path skills;

  private ExternalCommand.Outcome serve(String... args) {
    List<String> all = new ArrayList<>(List.of("serve"));
    all.addAll(List.of(args));
    return LaunchedServer.command(home, all.toArray(String[]::new))
        .environment(java.util.Map.of("TMPDIR", tmp.toString()))
        .run();
  }

  private void assertOneLine(ExternalCommand.Outcome run, int exit, String... phrases)
      throws IOException {
    assertThat(run.exit()).as(run.toString()).isEqualTo(exit);
    assertThat(run.stderr().strip().lines()).as(run.toString()).hasSize(1);
    assertThat(run.stderr()).startsWith("skillport: ").contains(phrases);
    assertThat(run.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(run.stdout()).isEmpty();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).as("left in the temp folder").isEmpty();
    }
  }

  @Test
  void portInUse_oneLineExitOne_verboseShowsTheTrace() throws Exception {
    try (LaunchedServer first = LaunchedServer.start(home, "--no-watch", "--no-bundled")) {
      String port = Integer.toString(first.uri().getPort());

      ExternalCommand.Outcome run = serve("--http", "--port", port, "--instance", "second");
      ExternalCommand.Outcome verbose =
          serve("--http", "--port", port, "--instance", "second", "--verbose");

      assertOneLine(run, 1, "port " + port + " on 127.0.0.1 is in use", "--port");
      assertThat(verbose.exit()).isEqualTo(1);
      assertThat(verbose.stderr()).contains("BindException").contains("\tat ");
      assertThat(first.isAlive()).isTrue();
    }
  }

  @Test
  void portOutOfRange_oneLineExitTwo() throws Exception {
    assertOneLine(serve("--http", "--port", "99999"), 2, "--port 99999 is not a port");
  }

  @Test
  void allowListsMalformed_oneLineExitTwo() throws Exception {
    Path missing = tmp.resolve("missing");
    assertOneLine(
        serve("--allow-tool", "create_cube"),
        2,
        "--allow-tool create_cube does not name a tool",
        "SKILL/TOOL");
    assertOneLine(
        serve("--allow-path", "assets=" + missing),
        2,
        "--allow-path assets=" + missing,
        "is not an existing folder");
    assertOneLine(
        serve("--allow-path", "a=" + skills, "--allow-path", "a=" + home),
        2,
        "--allow-path gives one NAME to two folders");
  }

  @Test
  void pageSizeZero_oneLineExitTwo() throws Exception {
    assertOneLine(serve("--page-size", "0"), 2, "--page-size 0 is not a page size");
  }

  @Test
  void clientRequestTimeoutZero_oneLineExitTwo() throws Exception {
    assertOneLine(
        serve("--client-request-timeout", "0"), 2, "--client-request-timeout 0 is not a wait");
  }

  @Test
  void publicAddressWithoutToken_oneLineExitTwo() throws Exception {
    assertOneLine(
        serve("--http", "--host", "0.0.0.0", "--port", "0"),
        2,
        "--host 0.0.0.0 is reachable from other machines",
        "--auth-token");
  }

  @Test
  void missingSkillFolder_oneLineExitTwo() throws Exception {
    Path missing = skills.resolve("no-such-folder");

    assertOneLine(
        serve("--stdio", "--skills", missing.toString()), 2, missing + ": no such folder");
  }

  @Test
  void skillFolderIsAFileOrAPipe_oneLineExitTwo() throws Exception {
    Path file = Files.writeString(skills.resolve("notes.txt"), "not skills");
    Path fifo = skills.resolve("pipe");
    assertThat(ExternalCommand.of("mkfifo", fifo.toString()).run().exit()).isZero();

    assertOneLine(serve("--stdio", "--skills", file.toString()), 2, file + " is not a folder");
    assertOneLine(serve("--stdio", "--skills", fifo.toString()), 2, fifo + " is not a folder");
  }

  @Test
  void lockedStore_namedInstance_oneLineExitOne() throws Exception {
    try (LaunchedServer first =
        LaunchedServer.start(home, "--no-watch", "--no-bundled", "--instance", "studio")) {
      ExternalCommand.Outcome http =
          serve("--http", "--port", "0", "--no-bundled", "--instance", "studio");
      ExternalCommand.Outcome stdio = serve("--stdio", "--no-bundled", "--instance", "studio");
      ExternalCommand.Outcome dir =
          serve(
              "--stdio",
              "--no-bundled",
              "--jobs-dir",
              home.resolve(".skillport/jobs/studio").toString());

      assertOneLine(http, 1, "is in use by another Skillport server", "--instance NAME");
      assertOneLine(stdio, 1, "is in use by another Skillport server");
      assertOneLine(dir, 1, "is in use by another Skillport server");
      assertThat(first.isAlive()).isTrue();
    }
  }

  @Test
  void badToolListing_oneLineExitTwo() throws Exception {
    assertOneLine(
        serve("--stdio", "--no-bundled", "--tool-listing", "some"),
        2,
        "--tool-listing some is not a policy",
        "all, catalog or auto");
    assertOneLine(
        serve("--stdio", "--no-bundled", "--tool-listing-threshold", "-1"),
        2,
        "--tool-listing-threshold -1 is negative");
  }

  @Test
  void emptyOrMissingStateKeyFile_oneLineEach() throws Exception {
    Path empty = Files.writeString(skills.resolve("empty.key"), "\n");
    Path missing = skills.resolve("missing.key");

    assertOneLine(
        serve("--stdio", "--no-bundled", "--state-key-file", empty.toString()),
        2,
        "--state-key-file " + empty + " is empty");
    assertOneLine(
        serve("--stdio", "--no-bundled", "--state-key-file", missing.toString()),
        1,
        "cannot read the state key file " + missing);
  }

  @Test
  void badInstanceName_oneLineExitTwo() throws Exception {
    assertOneLine(serve("--stdio", "--instance", "../escape"), 2, "--instance ../escape");
  }
}
