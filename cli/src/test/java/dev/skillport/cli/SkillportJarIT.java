package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Runs the shaded {@code skillport.jar} as a child process, as a user would. */
class SkillportJarIT {
  private static Path jar;
  private static Path samples;

  @BeforeAll
  static void locate() {
    jar = Path.of(System.getProperty("skillport.jar", "target/skillport.jar"));
    samples = Path.of(System.getProperty("skillport.samples", "../samples/skills"));
    assertThat(jar).isRegularFile();
    assertThat(samples).isDirectory();
  }

  private record Result(int exitCode, String out, String err) {}

  private static Result run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(ChildJvm.command("-jar", jar.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("skillport-out", ".txt");
    Path err = Files.createTempFile("skillport-err", ".txt");
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      // No input: the child must not wait on (or read) the test runner's stdin.
      p.getOutputStream().close();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("skillport finished").isTrue();
      return new Result(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  @Test
  void validate_samples_exitZeroEverySkillPasses() throws Exception {
    Result r = run("validate", samples.toString());

    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .contains("PASS file-stats (available, repo)")
        .contains("PASS image-tools (available, repo)")
        .contains("PASS image-report (available, repo)")
        .contains("3 skills: 3 passed, 0 with warnings, 0 failed; 0 errors, 0 warnings, 0 notices");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void validateStrictJson_samples_passedTrue() throws Exception {
    Result r = run("validate", "--strict", "--format", "json", samples.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"passed\" : true").contains("\"strict\" : true");
  }

  @Test
  void list_samples_tableWithToolCounts() throws Exception {
    Result r = run("list", samples.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.out().lines().toList()).hasSize(4).first().asString().startsWith("NAME");
    assertThat(r.out()).containsPattern("image-tools\\s+repo\\s+available\\s+3\\s");
  }

  @Test
  void version_andUsageError_exitCodes() throws Exception {
    Result version = run("--version");
    Result usage = run("validate", "--no-such-option", samples.toString());

    assertThat(version.exitCode()).isZero();
    assertThat(version.out()).startsWith("skillport ");
    assertThat(usage.exitCode()).isEqualTo(2);
    assertThat(usage.err()).contains("Unknown option");
  }
}
