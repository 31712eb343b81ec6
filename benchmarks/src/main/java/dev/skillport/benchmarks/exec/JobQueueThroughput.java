package dev.skillport.benchmarks.exec;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * Jobs per second through the job queue: rounds of {@code --jobs} async calls to a Java handler
 * tool, each round timed from the first submission until the last job has finished. The first
 * {@code --warmup} rounds are not counted. Prints one line per round and the median per store.
 *
 * <p>Options: {@code --jobs 2000 --rounds 5 --warmup 2 --workers 4 --store both|memory|mvstore}.
 */
public final class JobQueueThroughput {
  private JobQueueThroughput() {}

  public static void main(String[] argv) throws Exception {
    int jobs = 2000;
    int rounds = 5;
    int warmup = 2;
    int workers = 4;
    String store = "both";
    for (int i = 0; i + 1 < argv.length; i += 2) {
      String v = argv[i + 1];
      switch (argv[i]) {
        case "--jobs" -> jobs = Integer.parseInt(v);
        case "--rounds" -> rounds = Integer.parseInt(v);
        case "--warmup" -> warmup = Integer.parseInt(v);
        case "--workers" -> workers = Integer.parseInt(v);
        case "--store" -> store = v;
        default -> throw new IllegalArgumentException("unknown option " + argv[i]);
      }
    }
    PrintStream out = System.out;
    if (!store.equals("mvstore")) {
      measure(out, false, jobs, rounds, warmup, workers);
    }
    if (!store.equals("memory")) {
      measure(out, true, jobs, rounds, warmup, workers);
    }
  }

  private static void measure(
      PrintStream out, boolean persistent, int jobs, int rounds, int warmup, int workers)
      throws Exception {
    String name = persistent ? "mvstore" : "memory";
    double[] rates = new double[rounds];
    try (JobQueueRun run = JobQueueRun.start(persistent, workers)) {
      for (int r = -warmup; r < rounds; r++) {
        double rate = jobs / (run.drain(jobs) / 1e9);
        run.clear();
        String label = r < 0 ? "warmup " + (r + warmup + 1) : "round " + (r + 1);
        out.printf(Locale.ROOT, "%s %s: %,.0f jobs/s%n", name, label, rate);
        if (r >= 0) {
          rates[r] = rate;
        }
      }
    }
    Arrays.sort(rates);
    out.printf(
        Locale.ROOT,
        "%s: median %,.0f jobs/s (min %,.0f, max %,.0f) over %d rounds of %d jobs, %d workers%n",
        name,
        rates[rounds / 2],
        rates[0],
        rates[rounds - 1],
        rounds,
        jobs,
        workers);
  }
}
