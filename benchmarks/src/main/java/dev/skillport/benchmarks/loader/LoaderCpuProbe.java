package dev.skillport.benchmarks.loader;

import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Loader throughput per CPU-second on one thread, for a machine shared with other work: loads a
 * generated tree repeatedly with parallelism 1 and divides the skills loaded by the CPU time the
 * loading thread used (and, as a second figure, by the whole process's CPU time, which adds garbage
 * collection and compilation). Other processes taking the CPU lower the wall-clock rate that {@link
 * LoaderBenchmark} reports, much less this one; cache and memory contention still show.
 *
 * <p>Run as {@code java -cp benchmarks.jar dev.skillport.benchmarks.loader.LoaderCpuProbe [skills]
 * [rounds] [warm-up seconds] [round seconds]}.
 */
public final class LoaderCpuProbe {
  private final PrintWriter out;

  LoaderCpuProbe(PrintWriter out) {
    this.out = out;
  }

  /** One measured round. */
  record Round(int skills, long threadCpuNanos, long processCpuNanos, long wallNanos) {
    double perThreadCpuSecond() {
      return skills / (threadCpuNanos / 1e9);
    }

    double perProcessCpuSecond() {
      return skills / (processCpuNanos / 1e9);
    }

    double perWallSecond() {
      return skills / (wallNanos / 1e9);
    }
  }

  public static void main(String[] args) throws IOException {
    int skills = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    int warmUpSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    int roundSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    // The probe's report is its output, like a command-line tool's.
    PrintWriter out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    new LoaderCpuProbe(out).run(skills, rounds, warmUpSeconds, roundSeconds);
  }

  /**
   * Generates a tree, warms up, measures {@code rounds} rounds and deletes the tree.
   *
   * @return the median skills per CPU-second of the loading thread
   */
  double run(int skills, int rounds, int warmUpSeconds, int roundSeconds) throws IOException {
    if (skills < 1 || rounds < 1 || warmUpSeconds < 0 || roundSeconds < 1) {
      throw new IllegalArgumentException("skills, rounds and round seconds must be >= 1");
    }
    GeneratedTree tree =
        SkillTreeGenerator.seeded(LoaderBenchmark.SEED)
            .write(Files.createTempDirectory("skillport-cpu-probe-"), skills);
    try {
      SkillLoader loader = new SkillLoader(LoaderOptions.DEFAULTS.withParallelism(1));
      List<SkillRoot> roots = List.of(SkillRoot.of(tree.root(), Scope.REPO));
      LoaderBenchmark.requireClean(loader.load(roots), skills);
      long warmUpEnd = System.nanoTime() + warmUpSeconds * 1_000_000_000L;
      while (System.nanoTime() < warmUpEnd) {
        loader.load(roots);
      }
      List<Double> perThreadCpu = new ArrayList<>();
      for (int r = 1; r <= rounds; r++) {
        Round round = measure(loader, roots, roundSeconds * 1_000_000_000L);
        perThreadCpu.add(round.perThreadCpuSecond());
        out.printf(
            Locale.ROOT,
            "round %d: %d skills; %.0f skills per thread CPU-second, %.0f per process"
                + " CPU-second, %.0f per wall-clock second%n",
            r,
            round.skills(),
            round.perThreadCpuSecond(),
            round.perProcessCpuSecond(),
            round.perWallSecond());
      }
      Collections.sort(perThreadCpu);
      double median = perThreadCpu.get(perThreadCpu.size() / 2);
      out.printf(
          Locale.ROOT,
          "skills per thread CPU-second (median): %.0f; load average: %s%n",
          median,
          loadAverage());
      return median;
    } finally {
      tree.delete();
    }
  }

  private static Round measure(SkillLoader loader, List<SkillRoot> roots, long nanos) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
    long thread0 = threads.getCurrentThreadCpuTime();
    long process0 = os.getProcessCpuTime();
    long wall0 = System.nanoTime();
    int skills = 0;
    while (System.nanoTime() - wall0 < nanos) {
      skills += loader.load(roots).skills().size();
    }
    return new Round(
        skills,
        threads.getCurrentThreadCpuTime() - thread0,
        os.getProcessCpuTime() - process0,
        System.nanoTime() - wall0);
  }

  /** The first three fields of /proc/loadavg, or "unknown" where there is none. */
  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields.length >= 3 ? fields[0] + " " + fields[1] + " " + fields[2] : "unknown";
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
