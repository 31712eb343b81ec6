package dev.skillport.benchmarks.loader;

import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Discovery, parsing and validation of a whole generated skill tree by {@link SkillLoader}.
 *
 * <p>The primary score is tree loads per second; the secondary {@code skills} score is skills
 * loaded per second, the figure the loader's targets are stated in. The tree is generated once per
 * trial and checked to load without a single diagnostic, so the score never measures broken skills.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The loader's Scope is imported; JMH's is spelled out.
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 10)
@Measurement(iterations = 5, time = 10)
public class LoaderBenchmark {
  /** Seed of the generated trees; fixed so every run measures the same skills. */
  static final long SEED = 20_240_601L;

  /** How many skills the tree holds. */
  @Param({"1000", "10000"})
  public int skills;

  /** Loader parallelism: a thread count, or {@code all} for every available processor. */
  @Param({"1", "all"})
  public String parallelism;

  private GeneratedTree tree;
  private SkillLoader loader;
  private List<SkillRoot> roots;

  @Setup(Level.Trial)
  public void generateTree() throws IOException {
    tree =
        SkillTreeGenerator.seeded(SEED)
            .write(Files.createTempDirectory("skillport-loader-bench-"), skills);
    loader = new SkillLoader(LoaderOptions.DEFAULTS.withParallelism(threads(parallelism)));
    roots = List.of(SkillRoot.of(tree.root(), Scope.REPO));
    requireClean(loader.load(roots), skills);
  }

  @TearDown(Level.Trial)
  public void deleteTree() throws IOException {
    tree.delete();
  }

  @Benchmark
  public LoadResult load(SkillCount count) {
    LoadResult result = loader.load(roots);
    count.skills += result.skills().size();
    return result;
  }

  /** Skills loaded, reported by JMH as a rate next to the primary score. */
  @State(org.openjdk.jmh.annotations.Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class SkillCount {
    public long skills;

    @Setup(Level.Iteration)
    public void reset() {
      skills = 0;
    }
  }

  /** The thread count a {@code parallelism} parameter stands for. */
  static int threads(String parallelism) {
    return "all".equals(parallelism)
        ? Runtime.getRuntime().availableProcessors()
        : Integer.parseInt(parallelism);
  }

  /**
   * Fails unless {@code result} holds exactly {@code expected} skills and no diagnostic: a tree the
   * loader rejects would make the benchmark time the rejection path instead.
   */
  static void requireClean(LoadResult result, int expected) {
    if (result.skills().size() != expected || !result.diagnostics().isEmpty()) {
      String sample =
          result.diagnostics().stream()
              .limit(5)
              .map(Diagnostic::format)
              .collect(Collectors.joining("\n  "));
      throw new IllegalStateException(
          "generated tree did not load cleanly: "
              + result.skills().size()
              + " of "
              + expected
              + " skills, "
              + result.diagnostics().size()
              + " diagnostics\n  "
              + sample);
    }
  }
}
