package dev.skillport.benchmarks.exec;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * The runner's overhead measured in pairs: each round calls the script once through the runner and
 * once bare, in alternating order, so load from other processes on a shared machine hits both sides
 * alike. Prints the p50 and p99 of each side and the p50 of the per-pair difference.
 *
 * <p>Arguments: {@code kind} ({@code python} or {@code bash}, default python), pairs (default 200),
 * warm-up pairs (default 20).
 */
public final class ScriptOverheadProbe {
  private ScriptOverheadProbe() {}

  public static void main(String[] argv) throws Exception {
    String kind = argv.length > 0 ? argv[0] : "python";
    int pairs = argv.length > 1 ? Integer.parseInt(argv[1]) : 200;
    int warmup = argv.length > 2 ? Integer.parseInt(argv[2]) : 20;
    long[] runner = new long[pairs];
    long[] bare = new long[pairs];
    long[] diff = new long[pairs];
    try (ScriptCallPaths paths = ScriptCallPaths.create(kind)) {
      for (int i = -warmup; i < pairs; i++) {
        boolean runnerFirst = (i & 1) == 0;
        long r;
        long b;
        if (runnerFirst) {
          r = timeRunner(paths);
          b = timeBare(paths);
        } else {
          b = timeBare(paths);
          r = timeRunner(paths);
        }
        if (i >= 0) {
          runner[i] = r;
          bare[i] = b;
          diff[i] = r - b;
        }
      }
    }
    Arrays.sort(runner);
    Arrays.sort(bare);
    Arrays.sort(diff);
    PrintStream out = System.out;
    out.printf(
        Locale.ROOT,
        "%s, %d pairs: runner p50 %.2f ms p99 %.2f ms; bare p50 %.2f ms p99 %.2f ms;"
            + " overhead p50(runner) - p50(bare) %.2f ms, p50 of pair differences %.2f ms%n",
        kind,
        pairs,
        ms(pct(runner, 0.50)),
        ms(pct(runner, 0.99)),
        ms(pct(bare, 0.50)),
        ms(pct(bare, 0.99)),
        ms(pct(runner, 0.50) - pct(bare, 0.50)),
        ms(pct(diff, 0.50)));
  }

  private static long timeRunner(ScriptCallPaths paths) {
    long t0 = System.nanoTime();
    if (paths.runner().isError()) {
      throw new IllegalStateException("the script tool call failed");
    }
    return System.nanoTime() - t0;
  }

  private static long timeBare(ScriptCallPaths paths) throws Exception {
    long t0 = System.nanoTime();
    paths.bare();
    return System.nanoTime() - t0;
  }

  private static long pct(long[] sorted, double p) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
