package dev.skillport.benchmarks.load;

import dev.skillport.benchmarks.loader.GeneratedTree;
import dev.skillport.benchmarks.loader.SkillTreeGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What one edited skill costs a watching server with a large tree: a server started with {@code
 * bin/skillport serve --http} on a generated tree, then one skill's {@code SKILL.md} edited at a
 * time; each reload's duration is read from the server's own {@code /metrics} (the reload
 * histogram's sum before and after), so the debounce wait is not counted. With {@code --before-jar}
 * the same edits are made against a second jar, one server at a time, on the same tree.
 *
 * <pre>
 * java -cp benchmarks.jar dev.skillport.benchmarks.load.ReloadProbe \
 *     --jar cli/target/skillport.jar [--launcher bin/skillport] [--before-jar OLD.jar
 *     [--before-launcher OLD-LAUNCHER]] [--skills 10000] [--edits 5]
 * </pre>
 */
public final class ReloadProbe {
  private static final Pattern SUM =
      Pattern.compile("(?m)^skillport_catalog_reload_duration_seconds_sum(?:\\{[^}]*})? (\\S+)$");
  private static final Pattern COUNT =
      Pattern.compile("(?m)^skillport_catalog_reload_duration_seconds_count(?:\\{[^}]*})? (\\S+)$");

  private final PrintStream out = System.out;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private ReloadProbe() {}

  public static void main(String[] argv) throws Exception {
    Path jar = null;
    Path launcher = Path.of("bin/skillport");
    Path beforeJar = null;
    Path beforeLauncher = null;
    int skills = 10_000;
    int edits = 5;
    for (int i = 0; i + 1 < argv.length; i += 2) {
      String v = argv[i + 1];
      switch (argv[i]) {
        case "--jar" -> jar = Path.of(v);
        case "--launcher" -> launcher = Path.of(v);
        case "--before-jar" -> beforeJar = Path.of(v);
        case "--before-launcher" -> beforeLauncher = Path.of(v);
        case "--skills" -> skills = Integer.parseInt(v);
        case "--edits" -> edits = Integer.parseInt(v);
        default -> throw new IllegalArgumentException("unknown option " + argv[i]);
      }
    }
    if (jar == null) {
      throw new IllegalArgumentException("--jar must name the built skillport.jar");
    }
    Path work = Files.createTempDirectory("skillport-reload-probe");
    try {
      GeneratedTree tree = SkillTreeGenerator.seeded(42).write(work.resolve("skills"), skills);
      ReloadProbe probe = new ReloadProbe();
      probe.out.printf(Locale.ROOT, "tree: %,d skills, %d edits per server%n", skills, edits);
      if (beforeJar != null) {
        probe.run(
            "before",
            beforeLauncher == null ? launcher : beforeLauncher,
            beforeJar,
            tree,
            work,
            edits);
      }
      probe.run("after", launcher, jar, tree, work, edits);
    } finally {
      try (Stream<Path> all = Files.walk(work)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private void run(String label, Path launcher, Path jar, GeneratedTree tree, Path work, int edits)
      throws Exception {
    Path home = Files.createDirectories(work.resolve("home-" + label));
    int port = ServerProcess.freePort();
    URI base = URI.create("http://127.0.0.1:" + port);
    List<String> command =
        List.of(
            launcher.toString(),
            "serve",
            "--http",
            "--host",
            "127.0.0.1",
            "--port",
            Integer.toString(port),
            "--no-bundled",
            "--skills",
            tree.root().toString());
    Map<String, String> env =
        Map.of(
            "SKILLPORT_JAR", jar.toAbsolutePath().toString(),
            "HOME", home.toString(),
            "TMPDIR", home.toString());
    try (ServerProcess server =
        ServerProcess.start(command, env, work.resolve("server-" + label + ".log"))) {
      server.awaitHttp(base.resolve("/mcp"), Duration.ofMinutes(5));
      double[] first = metrics(base);
      List<Double> took = new ArrayList<>();
      for (int i = 0; i < edits; i++) {
        double[] before = metrics(base);
        Path skillMd =
            tree.root()
                .resolve(String.format(Locale.ROOT, "pack-%03d", i))
                .resolve(tree.skillNames().get(i * 100))
                .resolve("SKILL.md");
        String text = Files.readString(skillMd, StandardCharsets.UTF_8);
        Files.writeString(
            skillMd,
            text.replaceFirst("description: ", "description: Edited " + i + ". "),
            StandardCharsets.UTF_8);
        double[] after = awaitReload(base, before[1], Duration.ofMinutes(2));
        took.add((after[0] - before[0]) * 1000 / (after[1] - before[1]));
      }
      took.sort(Comparator.naturalOrder());
      out.printf(
          Locale.ROOT,
          "%s: first load %.0f ms; reload after one edited skill: median %.1f ms, all %s ms"
              + " (peak RSS %d MiB)%n",
          label,
          first[0] * 1000,
          took.get(took.size() / 2),
          took.stream().map(t -> String.format(Locale.ROOT, "%.1f", t)).toList(),
          server.peakRssKiB() / 1024);
    }
  }

  /** The reload histogram's sum (seconds) and count. */
  private double[] metrics(URI base) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(base.resolve("/metrics"))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("/metrics answered " + r.statusCode());
    }
    return new double[] {value(SUM, r.body()), value(COUNT, r.body())};
  }

  private static double value(Pattern p, String body) {
    Matcher m = p.matcher(body);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  private double[] awaitReload(URI base, double count, Duration timeout) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      double[] now = metrics(base);
      if (now[1] > count) {
        return now;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("no reload within " + timeout);
  }
}
