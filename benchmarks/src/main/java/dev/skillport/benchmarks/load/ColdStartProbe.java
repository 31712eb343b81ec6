package dev.skillport.benchmarks.load;

import dev.skillport.benchmarks.loader.GeneratedTree;
import dev.skillport.benchmarks.loader.SkillTreeGenerator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Cold start of {@code skillport serve --stdio} over a generated tree: the time from starting the
 * process to the first {@code tools/list} answer, with {@code initialize} sent at once.
 *
 * <pre>
 * java -cp benchmarks.jar dev.skillport.benchmarks.load.ColdStartProbe \
 *     --jar cli/target/skillport.jar [--launcher bin/skillport] [--skills 1000] [--runs 5]
 * </pre>
 *
 * <p>With {@code --launcher} the server starts the way users start it (the launcher's JVM options,
 * its class-data archive); without it, as a bare {@code java -jar}.
 */
public final class ColdStartProbe {
  private ColdStartProbe() {}

  public static void main(String[] argv) throws Exception {
    Path jar = null;
    Path launcher = null;
    int skills = 1000;
    int runs = 5;
    for (int i = 0; i < argv.length; i += 2) {
      switch (argv[i]) {
        case "--jar" -> jar = Path.of(argv[i + 1]);
        case "--launcher" -> launcher = Path.of(argv[i + 1]);
        case "--skills" -> skills = Integer.parseInt(argv[i + 1]);
        case "--runs" -> runs = Integer.parseInt(argv[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + argv[i]);
      }
    }
    if (jar == null || !Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--jar must name the built skillport.jar");
    }
    PrintStream out = System.out;
    GeneratedTree tree =
        SkillTreeGenerator.seeded(7).write(Files.createTempDirectory("skillport-cold"), skills);
    // The server's home and temp folder for these runs (job store, unpacked bundled skills), so
    // nothing is left in the user's.
    Path home = Files.createTempDirectory("skillport-cold-home");
    try {
      long[] millis = new long[runs];
      for (int r = 0; r < runs; r++) {
        millis[r] = once(command(jar, launcher, tree.root(), home), jar, home);
        out.printf(Locale.ROOT, "run %d: %d ms%n", r + 1, millis[r]);
      }
      Arrays.sort(millis);
      out.printf(
          Locale.ROOT,
          "cold start to first tools/list, %d skills: median %d ms, best %d ms, worst %d ms%n",
          skills,
          millis[runs / 2],
          millis[0],
          millis[runs - 1]);
    } finally {
      tree.delete();
      deleteTree(home);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static List<String> command(Path jar, Path launcher, Path skills, Path home) {
    List<String> serve = List.of("serve", "--stdio", "--no-watch", "--skills", skills.toString());
    List<String> command = new ArrayList<>();
    if (launcher != null) {
      command.add(launcher.toString());
    } else {
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Duser.home=" + home);
      command.add("-Djava.io.tmpdir=" + home);
      command.add("-jar");
      command.add(jar.toString());
    }
    command.addAll(serve);
    return command;
  }

  private static long once(List<String> command, Path jar, Path home) throws Exception {
    long start = System.nanoTime();
    ProcessBuilder builder = new ProcessBuilder(command);
    // The launcher finds the jar (and the archive beside it) through SKILLPORT_JAR.
    builder.environment().put("SKILLPORT_JAR", jar.toAbsolutePath().toString());
    // The launcher hands HOME and TMPDIR to the JVM.
    builder.environment().put("HOME", home.toString());
    builder.environment().put("TMPDIR", home.toString());
    Process p = builder.redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (OutputStream in = p.getOutputStream();
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String init =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
              + "\"capabilities\":{},\"clientInfo\":{\"name\":\"cold-start\",\"version\":\"1\"}}}\n"
              + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
              + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
      in.write(init.getBytes(StandardCharsets.UTF_8));
      in.flush();
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.contains("\"id\":2")) {
          long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          if (!line.contains("\"tools\"")) {
            throw new IllegalStateException("tools/list failed: " + line);
          }
          return elapsed;
        }
      }
      throw new IllegalStateException("the server closed stdout before answering tools/list");
    } finally {
      p.destroy();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
