package dev.skillport.benchmarks.loader;

import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Measures the heap a {@link LoadResult} keeps alive per skill: loads a generated tree, forces full
 * collections, and compares the used heap while the result is held with the used heap after it is
 * released.
 *
 * <p>Run as {@code java -cp benchmarks.jar dev.skillport.benchmarks.loader.RetainedHeapProbe
 * [skills] [rounds]}; it prints one line per round and the median bytes per skill.
 */
public final class RetainedHeapProbe {
  /** The stated target: at most this many bytes retained per loaded skill. */
  static final long TARGET_BYTES_PER_SKILL = 20 * 1024;

  private static final int SETTLE_ATTEMPTS = 10;

  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final PrintWriter out;

  // A field rather than a local: the JIT may end a local's life early, a field's it may not.
  private LoadResult held;

  RetainedHeapProbe(PrintWriter out) {
    this.out = out;
  }

  /** Sizes measured in one round. */
  record Round(long baseline, long held, long released, int skills) {
    long retained() {
      return held - released;
    }

    double bytesPerSkill() {
      return (double) retained() / skills;
    }
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    int skills = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    // The probe's report is its output, like a command-line tool's.
    PrintWriter out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    double median = new RetainedHeapProbe(out).run(skills, rounds);
    out.printf(
        Locale.ROOT,
        "target: <= %d bytes per skill: %s%n",
        TARGET_BYTES_PER_SKILL,
        median <= TARGET_BYTES_PER_SKILL ? "met" : "MISSED");
  }

  /**
   * Generates a tree of {@code skills} skills, measures {@code rounds} times, deletes the tree.
   *
   * @return the median retained bytes per skill
   */
  double run(int skills, int rounds) throws IOException, InterruptedException {
    if (skills < 1 || rounds < 1) {
      throw new IllegalArgumentException("skills and rounds must be >= 1");
    }
    GeneratedTree tree =
        SkillTreeGenerator.seeded(LoaderBenchmark.SEED)
            .write(Files.createTempDirectory("skillport-heap-probe-"), skills);
    try {
      List<SkillRoot> roots = List.of(SkillRoot.of(tree.root(), Scope.REPO));
      // A first load outside the measurement: class loading, static caches and JIT code land in
      // the baseline instead of being charged to the result.
      LoadResult warmUp = new SkillLoader(LoaderOptions.DEFAULTS).load(roots);
      LoaderBenchmark.requireClean(warmUp, skills);
      warmUp = null;

      List<Double> perSkill = new ArrayList<>();
      for (int r = 1; r <= rounds; r++) {
        Round round = measure(roots, skills);
        perSkill.add(round.bytesPerSkill());
        out.printf(
            Locale.ROOT,
            "round %d: skills=%d baseline=%d held=%d released=%d retained=%d bytes"
                + " (%.0f bytes/skill, %.0f bytes/skill above baseline)%n",
            r,
            round.skills(),
            round.baseline(),
            round.held(),
            round.released(),
            round.retained(),
            round.bytesPerSkill(),
            (double) (round.held() - round.baseline()) / round.skills());
      }
      Collections.sort(perSkill);
      double median = perSkill.get(perSkill.size() / 2);
      out.printf(Locale.ROOT, "retained heap per skill (median): %.0f bytes%n", median);
      return median;
    } finally {
      tree.delete();
    }
  }

  private Round measure(List<SkillRoot> roots, int expected) throws InterruptedException {
    long baseline = settledUsedHeap();
    held = new SkillLoader(LoaderOptions.DEFAULTS).load(roots);
    LoaderBenchmark.requireClean(held, expected);
    int skills = held.skills().size();
    long whileHeld = settledUsedHeap();
    held = null;
    long released = settledUsedHeap();
    return new Round(baseline, whileHeld, released, skills);
  }

  /**
   * Used heap after repeated full collections: collects until a collection frees less than 1 MiB,
   * since one {@code System.gc()} may leave finalizable or soft-reachable garbage behind.
   */
  private long settledUsedHeap() throws InterruptedException {
    long previous = Long.MAX_VALUE;
    long used = 0;
    for (int i = 0; i < SETTLE_ATTEMPTS; i++) {
      System.gc();
      memory.gc();
      Thread.sleep(50);
      used = memory.getHeapMemoryUsage().getUsed();
      if (previous - used < 1024 * 1024) {
        break;
      }
      previous = used;
    }
    return used;
  }
}
