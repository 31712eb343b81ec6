package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
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
    return run(launcher, e -> e.putAll(env), args);
  }

  /**
   * Runs {@code program} (the launcher or a link to it) with the test's environment, then {@code
   * edit}.
   */
  private Result run(Path program, Consumer<Map<String, String>> edit, String... args)
      throws IOException, InterruptedException {
    return run(program, edit, null, args);
  }

  /** {@link #run(Path, Consumer, String...)} reading {@code input} (none when null) on stdin. */
  private Result run(Path program, Consumer<Map<String, String>> edit, Path input, String... args)
      throws IOException, InterruptedException {
    Path out = temp.resolve("out.txt");
    Path err = temp.resolve("err.txt");
    List<String> command = new ArrayList<>();
    command.add(program.toString());
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
    edit.accept(builder.environment());
    if (input != null) {
      builder.redirectInput(input.toFile());
    }
    Process p = builder.start();
    if (input == null) {
      p.getOutputStream().close();
    }
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

  /**
   * A stdio server with no skills of its own answering an opening ({@code initialize}, then {@code
   * tools/list}) read from a file, which ends when the file does.
   */
  private Result opening(Consumer<Map<String, String>> edit, String... extra)
      throws IOException, InterruptedException {
    Path input = temp.resolve("opening.jsonl");
    Files.writeString(
        input,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
            + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
            + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n");
    List<String> args = new ArrayList<>(List.of("serve", "--stdio", "--no-watch", "--no-bundled"));
    args.addAll(List.of(extra));
    return run(launcher, edit, input, args.toArray(String[]::new));
  }

  /** Fails unless {@code out} is exactly the answers to {@link #opening}'s two requests. */
  private static void assertOnlyTheOpeningsAnswers(Result r) throws IOException {
    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    ObjectMapper json = new ObjectMapper();
    assertThat(lines).as(r.out()).hasSize(2);
    for (int i = 0; i < lines.size(); i++) {
      var message = json.readTree(lines.get(i));
      assertThat(message.path("jsonrpc").asText()).as(lines.get(i)).isEqualTo("2.0");
      assertThat(message.path("id").asInt()).isEqualTo(i + 1);
      assertThat(message.has("result")).as(lines.get(i)).isTrue();
    }
  }

  /**
   * The JDK 25 or newer the build trained the AOT cache with (named by {@code skillport.aot.jdk} or
   * {@code SKILLPORT_AOT_JDK}, else the building JDK when it is one), or null when it had none.
   */
  private static Path aotJdk() {
    String named = System.getProperty("skillport.aot.jdk", "");
    if (named.isEmpty() || named.startsWith("${")) {
      named = System.getenv().getOrDefault("SKILLPORT_AOT_JDK", "");
    }
    if (!named.isEmpty()) {
      return Path.of(named);
    }
    return Runtime.version().feature() >= 25 ? Path.of(System.getProperty("java.home")) : null;
  }

  /** The JDK a launcher test runs on: the AOT cache's when the build made one. */
  private static Path testJdk() {
    Path aot = aotJdk();
    return aot != null ? aot : Path.of(System.getProperty("java.home"));
  }

  private static Path besideJar(String suffix) {
    return Path.of(jar.toString().replaceFirst("\\.jar$", suffix));
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
  void launcher_onTheJdkThatMadeTheAotCache_loadsClassesFromIt() throws Exception {
    Path jdk = aotJdk();
    if (jdk == null) {
      // A build on a JDK before 25, with none named, trains the class-data archive only.
      assertThat(besideJar(".aot")).doesNotExist();
      return;
    }
    assertThat(besideJar(".aot")).as("the build's AOT cache").isRegularFile();
    assertThat(besideJar(".aot.release")).hasSameTextualContentAs(jdk.resolve("release"));

    Result r =
        run(
            Map.of("JAVA_HOME", jdk.toString(), "JAVA_OPTS", "-Xlog:class+load=info:stderr"),
            "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("skillport ");
    assertThat(r.err()).contains("dev.skillport.cli.Main source: shared objects file");

    // A short-lived command does not replay the cache's method profiles; the HTTP server does.
    Result flags =
        run(Map.of("JAVA_HOME", jdk.toString(), "JAVA_OPTS", "-XX:+PrintFlagsFinal"), "--version");
    Result http =
        run(
            Map.of(
                "JAVA_HOME",
                jdk.toString(),
                "JAVA_OPTS",
                "-XX:+UnlockDiagnosticVMOptions -XX:+PrintFlagsFinal"),
            "serve",
            "--http",
            "--port",
            "nope");
    assertThat(flags.out()).containsPattern("AOTReplayTraining\\s+=\\s+false\\s");
    assertThat(http.out()).containsPattern("AOTReplayTraining\\s+=\\s+true\\s");
  }

  @Test
  void launcher_damagedOrStaleAotCache_stdioWritesOnlyJsonRpcOnStdout() throws Exception {
    Path jdk = testJdk();
    Path damaged = Files.createDirectories(temp.resolve("damaged")).resolve("skillport.aot");
    Files.writeString(damaged, "not an AOT cache");
    Files.copy(jdk.resolve("release"), temp.resolve("damaged/skillport.aot.release"));
    // A cache trained against another jar: this one's copy, whose time and size differ.
    Path stale = Files.createDirectories(temp.resolve("stale"));
    Files.copy(jar, stale.resolve("skillport.jar"));
    try (FileSystem rebuilt = FileSystems.newFileSystem(stale.resolve("skillport.jar"))) {
      Files.writeString(rebuilt.getPath("rebuilt.txt"), "a jar rebuilt since the cache");
    }
    if (Files.exists(besideJar(".aot"))) {
      Files.copy(besideJar(".aot"), stale.resolve("skillport.aot"));
    } else {
      Files.writeString(stale.resolve("skillport.aot"), "");
    }
    Files.copy(jdk.resolve("release"), stale.resolve("skillport.aot.release"));

    Result withDamaged =
        opening(
            e -> {
              e.put("JAVA_HOME", jdk.toString());
              e.put("SKILLPORT_AOT", damaged.toString());
            });
    Result withStale =
        opening(
            e -> {
              e.put("JAVA_HOME", jdk.toString());
              e.put("SKILLPORT_JAR", stale.resolve("skillport.jar").toString());
            });

    assertOnlyTheOpeningsAnswers(withDamaged);
    assertOnlyTheOpeningsAnswers(withStale);
    assertThat(withDamaged.err()).isEmpty();
    assertThat(withStale.err()).isEmpty();
  }

  @Test
  void launcher_stdioStartThatStoresNothing_leavesNothingUnderHome() throws Exception {
    Path home = temp.resolve("home");

    Result r = opening(e -> e.put("JAVA_HOME", testJdk().toString()));

    assertOnlyTheOpeningsAnswers(r);
    if (Files.exists(home)) {
      try (Stream<Path> files = Files.walk(home)) {
        assertThat(files.filter(p -> !p.equals(home)).map(home::relativize).map(Path::toString))
            .isEmpty();
      }
    }
  }

  @Test
  void launcher_stdioStartWithItsOwnJobsFolder_leavesHomeUntouched() throws Exception {
    Path home = temp.resolve("home");

    Result r =
        opening(
            e -> e.put("JAVA_HOME", testJdk().toString()),
            "--jobs-dir",
            temp.resolve("jobs").toString());

    assertOnlyTheOpeningsAnswers(r);
    assertThat(home).doesNotExist();
    assertThat(temp.resolve("jobs")).isDirectory();
  }

  @Test
  void launcher_noStartCacheOption_isAcceptedAndChangesNothing() throws Exception {
    Result r = opening(e -> {}, "--no-start-cache");

    assertOnlyTheOpeningsAnswers(r);
  }

  @Test
  void launcher_cliCommandOrStdioSession_usesTheClientCompilerOnly() throws Exception {
    Result r = run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).containsPattern("TieredStopAtLevel\\s+=\\s+1\\s");
    assertThat(r.out()).containsPattern("UseSerialGC\\s+=\\s+true\\s");
    assertThat(r.out()).containsPattern("UsePerfData\\s+=\\s+false\\s");
  }

  @Test
  void launcher_cliCommandOrStdioSession_takesHugePagesWhereLinuxLeavesThemToTheProgram()
      throws Exception {
    Path setting = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    boolean madvise = Files.isReadable(setting) && Files.readString(setting).contains("[madvise]");

    Result r = run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "--version");
    Result http =
        run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "serve", "--http", "--port", "nope");
    Result refused =
        run(Map.of("JAVA_OPTS", "-XX:-UseTransparentHugePages -XX:+PrintFlagsFinal"), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).containsPattern("UseTransparentHugePages\\s+=\\s+" + madvise + "\\s");
    // The long-running HTTP server keeps the JVM's default; JAVA_OPTS may refuse them.
    assertThat(http.out()).containsPattern("UseTransparentHugePages\\s+=\\s+false\\s");
    assertThat(refused.out()).containsPattern("UseTransparentHugePages\\s+=\\s+false\\s");
  }

  @Test
  void launcher_collectorNamedInJavaOpts_winsOverTheSerialOne() throws Exception {
    Result r = run(Map.of("JAVA_OPTS", "-XX:+UseG1GC -XX:+PrintFlagsFinal"), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).containsPattern("UseG1GC\\s+=\\s+true\\s");
    assertThat(r.out()).containsPattern("UseSerialGC\\s+=\\s+false\\s");
  }

  @Test
  void launcher_httpServer_keepsTheOptimisingCompiler() throws Exception {
    // A usage error ends the run at once; the JVM has printed its flags by then.
    Result r =
        run(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), "serve", "--http", "--port", "nope");

    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).containsPattern("TieredStopAtLevel\\s+=\\s+4\\s");
    assertThat(r.out()).containsPattern("UseSerialGC\\s+=\\s+false\\s");
    assertThat(r.out()).containsPattern("UsePerfData\\s+=\\s+true\\s");
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

  @Test
  void launcher_startedThroughALink_findsTheJarBesideTheRealLauncher() throws Exception {
    Path bin = Files.createDirectories(temp.resolve("links/bin"));
    // A relative link to a link, as package managers and ~/bin set-ups make them.
    Path first = Files.createSymbolicLink(temp.resolve("links/skillport-real"), launcher);
    Path link = Files.createSymbolicLink(bin.resolve("skillport"), Path.of("../skillport-real"));
    assertThat(first).isSymbolicLink();

    Result r = run(link, e -> e.remove("SKILLPORT_JAR"), "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("skillport ");
  }

  @Test
  void launcher_withOnlyJavaHome_runsThatJvmAndNotOneOnPath() throws Exception {
    Path marker = temp.resolve("path-java-ran");
    Path path = toolsOnly(marker);

    Result r =
        run(
            launcher,
            e -> {
              e.put("PATH", path.toString());
              e.put("JAVA_HOME", System.getProperty("java.home"));
            },
            "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("skillport ").contains(System.getProperty("java.version"));
    assertThat(marker).doesNotExist();
  }

  @Test
  void launcher_withJavaOnPathOnly_runsIt() throws Exception {
    Path path = toolsOnly(null);
    Files.createSymbolicLink(path.resolve("java"), Path.of(javaBin(), "java"));

    Result r =
        run(
            launcher,
            e -> {
              e.put("PATH", path.toString());
              e.remove("JAVA_HOME");
            },
            "--version");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("skillport ");
  }

  @Test
  void launcher_withNoJavaAnywhere_saysWhereToPutOne() throws Exception {
    Path path = toolsOnly(null);

    Result r =
        run(
            launcher,
            e -> {
              e.put("PATH", path.toString());
              e.remove("JAVA_HOME");
            },
            "--version");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip())
        .isEqualTo(
            "skillport: no Java found: set JAVA_HOME to a JDK 17 or newer, or put its bin folder on"
                + " PATH.");
  }

  @Test
  void launcher_javaHomeTooOld_namesTheVersionItNeedsAndStartsNothing() throws Exception {
    Path marker = temp.resolve("old-java-ran");
    Path old = fakeJdk("old-jdk", "JAVA_VERSION=\"11.0.2\"", marker);

    Result r = run(launcher, e -> e.put("JAVA_HOME", old.toString()), "--version");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .contains("needs Java 17 or newer; " + old.resolve("bin/java") + " is Java 11.")
        .contains("Set JAVA_HOME to a JDK 17 or newer");
    assertThat(marker).doesNotExist();
  }

  @Test
  void launcher_javaOnPathIsJava8_namesTheVersionItNeeds() throws Exception {
    Path marker = temp.resolve("java8-ran");
    Path old = fakeJdk("jdk8", "JAVA_VERSION=\"1.8.0_392\"", marker);
    Path path = toolsOnly(null);
    Files.createSymbolicLink(path.resolve("java"), old.resolve("bin/java"));

    Result r =
        run(
            launcher,
            e -> {
              e.put("PATH", path.toString());
              e.remove("JAVA_HOME");
            },
            "--version");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("is Java 8.");
    assertThat(marker).doesNotExist();
  }

  @Test
  void launcher_javaHomeWithoutJava_saysSo() throws Exception {
    Path empty = Files.createDirectories(temp.resolve("not-a-jdk"));

    Result r = run(launcher, e -> e.put("JAVA_HOME", empty.toString()), "--version");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("JAVA_HOME is " + empty + ", which has no bin/java");
  }

  @Test
  void launcher_logFormatJson_onAnyCommand_writesJsonLinesOnStderrOnly() throws Exception {
    Result flag =
        run(
            Map.of("JAVA_OPTS", "-Dskillport.log.level=debug"),
            "serve",
            "--stdio",
            "--no-watch",
            "--no-bundled",
            "--log-format",
            "json");
    Result variable =
        stdio(Map.of("JAVA_OPTS", "-Dskillport.log.level=debug", "SKILLPORT_LOG_FORMAT", "json"));

    for (Result r : List.of(flag, variable)) {
      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out()).isEmpty();
      List<String> lines = r.err().lines().toList();
      assertThat(lines).isNotEmpty();
      ObjectMapper json = new ObjectMapper();
      for (String line : lines) {
        assertThat(json.readTree(line).path("level").asText()).as(line).isNotEmpty();
      }
      assertThat(lines)
          .anySatisfy(
              line ->
                  assertThat(json.readTree(line).path("formattedMessage").asText())
                      .matches("stdio session \\w+ started"));
    }
  }

  /**
   * A folder for PATH holding only the tools the launcher itself runs (bash, dirname, readlink),
   * plus a {@code java} that touches {@code marker} when {@code marker} is given.
   */
  private Path toolsOnly(Path marker) throws IOException {
    Path bin = Files.createDirectories(temp.resolve("tools-" + System.nanoTime()));
    for (String tool : List.of("bash", "dirname", "readlink")) {
      Files.createSymbolicLink(bin.resolve(tool), systemTool(tool));
    }
    if (marker != null) {
      script(bin.resolve("java"), marker);
    }
    return bin;
  }

  /** A folder shaped like a JDK: a release file with {@code versionLine} and a bin/java. */
  private Path fakeJdk(String name, String versionLine, Path marker) throws IOException {
    Path home = Files.createDirectories(temp.resolve(name));
    Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\n" + versionLine + "\n");
    script(Files.createDirectories(home.resolve("bin")).resolve("java"), marker);
    return home;
  }

  /** An executable shell script that touches {@code marker}. */
  private static void script(Path file, Path marker) throws IOException {
    Files.writeString(file, "#!/bin/sh\ntouch '" + marker + "'\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static Path systemTool(String name) {
    for (String dir : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(name + " is not on PATH");
  }
}
