package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bin/skillport}, the launcher users start, against the jar the build made and the
 * class-data sharing archive the build left beside it.
 */
class LauncherIT {
  private static Path jar;
  private static Path launcher;

  @TempDir Path temp;

  @BeforeAll
  static void locate() {
    jar = Path.of(System.getProperty("skillport.jar", "target/skillport.jar")).toAbsolutePath();
    Path samples = Path.of(System.getProperty("skillport.samples", "../samples/skills"));
    launcher = samples.toAbsolutePath().getParent().getParent().resolve("bin/skillport");
    assertThat(jar).isRegularFile();
    assertThat(launcher).isExecutable();
  }

  private record Result(int exitCode, String out, String err) {}

  private Result run(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    Path out = temp.resolve("out.txt");
    Path err = temp.resolve("err.txt");
    List<String> command = new ArrayList<>();
    command.add(launcher.toString());
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("SKILLPORT_JAR", jar.toString());
    builder.environment().put("PATH", javaBin() + ":" + System.getenv("PATH"));
    builder.environment().remove("JAVA_OPTS");
    // A serve command keeps its job records under ~/.skillport and unpacks into the temporary
    // folder: this test's folders, not the user's.
    builder.environment().put("HOME", temp.resolve("home").toString());
    builder.environment().put("TMPDIR", Files.createDirectories(temp.resolve("tmp")).toString());
    builder.environment().putAll(env);
    Process p = builder.start();
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("launcher finished").isTrue();
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /** A stdio server with no skills of its own and no input, which ends when its input does. */
  private Result stdio(Map<String, String> env) throws IOException, InterruptedException {
    return run(env, "serve", "--stdio", "--no-watch", "--no-bundled");
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin").toString();
  }

  @Test
  void launcher_withTheBuildsArchive_loadsClassesFromIt() throws Exception {
    Path archive = Path.of(jar.toString().replaceFirst("\\.jar$", ".jsa"));
    assertThat(archive).as("the build's class-data archive").isRegularFile();

    // Class loading is logged to stderr; classes read from the archive name it as their source.
    Result r = run(Map.of("JAVA_OPTS", "-Xlog:class+load=info:stderr"), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("skillport ");
    assertThat(r.err()).contains("dev.skillport.cli.Main source: shared objects file (top)");
    // picocli is built for Java 17 (third-party/picocli): Java 5 class files cannot be archived.
    assertThat(r.err()).contains("picocli.CommandLine source: shared objects file (top)");
    assertThat(r.err()).doesNotContain("picocli.CommandLine source: file:");
  }

  @Test
  void launcher_withAnUnusableArchive_startsAndKeepsStdoutClean() throws Exception {
    Path broken = temp.resolve("broken.jsa");
    Files.writeString(broken, "not an archive");

    Result r = run(Map.of("SKILLPORT_JSA", broken.toString()), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    // Only the version lines: a JVM warning on stdout would corrupt a stdio session.
    assertThat(r.out().lines()).hasSize(2).first().asString().startsWith("skillport ");
  }

  @Test
  void launcher_cliCommandOrStdioSession_usesTheClientCompilerOnly() throws Exception {
    Result r = run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).containsPattern("TieredStopAtLevel\\s+=\\s+1\\s");
  }

  @Test
  void launcher_httpServer_keepsTheOptimisingCompiler() throws Exception {
    // A usage error ends the run at once; the JVM has printed its flags by then.
    Result r =
        run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "serve", "--http", "--port", "nope");

    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).containsPattern("TieredStopAtLevel\\s+=\\s+4\\s");
  }

  @Test
  void launcher_httpServer_startsWithASmallHeapThatGivesBackWhatItFreed() throws Exception {
    Result r =
        run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "serve", "--http", "--port", "nope");

    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.out())
        .containsPattern("InitialHeapSize\\s+=\\s+16777216\\s")
        .containsPattern("MinHeapFreeRatio\\s+=\\s+10\\s")
        .containsPattern("MaxHeapFreeRatio\\s+=\\s+30\\s");
  }

  @Test
  void launcher_stdioSession_keepsTheDefaultHeap() throws Exception {
    Result r = run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).doesNotContainPattern("InitialHeapSize\\s+=\\s+16777216\\s");
  }

  @Test
  void launcher_logLevelProperty_logsOnStderrOnlyInThePattern() throws Exception {
    Result quiet = stdio(Map.of());
    Result debug = stdio(Map.of("JAVA_OPTS", "-Dskillport.log.level=debug"));

    assertThat(quiet.exitCode()).as(quiet.err()).isZero();
    assertThat(quiet.err()).isEmpty();
    assertThat(debug.exitCode()).as(debug.err()).isZero();
    assertThat(debug.out()).isEmpty();
    assertThat(debug.err())
        .containsPattern(
            "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} DEBUG \\[main\\] \\S+ - stdio session \\w+ started");
  }

  @Test
  void launcher_logbackConfigurationFile_isUsedInsteadOfTheStderrPattern() throws Exception {
    Result r =
        stdioWithLogback(
            "<configuration><appender name=\"E\" class=\"ch.qos.logback.core.ConsoleAppender\">"
                + "<target>System.err</target><encoder><pattern>CUSTOM %level %msg%n</pattern>"
                + "</encoder></appender><root level=\"debug\"><appender-ref ref=\"E\"/></root>"
                + "</configuration>");

    assertThat(r.err()).containsPattern("(?m)^CUSTOM DEBUG stdio session \\w+ started$");
  }

  @Test
  void launcher_brokenLogbackConfiguration_reportsOnStderrAndKeepsStdoutClean() throws Exception {
    Result r =
        stdioWithLogback(
            "<configuration><appender name=\"X\" class=\"org.example.NoSuchAppender\"/>"
                + "<root level=\"warn\"><appender-ref ref=\"X\"/></root></configuration>");

    assertThat(r.err()).contains("org.example.NoSuchAppender");
  }

  /**
   * A stdio server with no input, started with {@code xml} as its {@code
   * logback.configurationFile}: it ends normally and writes nothing on stdout.
   */
  private Result stdioWithLogback(String xml) throws Exception {
    Path config = temp.resolve("logback-named.xml");
    Files.writeString(config, xml);
    Result r = stdio(Map.of("JAVA_OPTS", "-Dlogback.configurationFile=" + config));
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).isEmpty();
    return r;
  }
}
