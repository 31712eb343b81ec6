package dev.skillport.benchmarks.registry;

import dev.skillport.benchmarks.loader.GeneratedTree;
import dev.skillport.benchmarks.loader.SkillTreeGenerator;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.InvalidCursorException;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.search.SkillHit;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.server.listing.ToolListing;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code tools/list} for one session over a large catalog (from the per-session cache, and built
 * from scratch) and {@code search_skills} ranking. Sample-time mode reports p50 and p99.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class RegistryBenchmark {
  private static final String[] QUERIES = {
    "polygon mesh",
    "render",
    "textur",
    "rigg animaton",
    "export usd",
    "scene camera light",
    "uv unwrap"
  };

  @Param({"10000"})
  public int skills;

  private GeneratedTree tree;
  private Catalog catalog;
  private ToolListing listing;
  private SessionView view;
  private List<CoreTool> core;
  private int query;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    tree =
        SkillTreeGenerator.seeded(42)
            .write(Files.createTempDirectory("skillport-registry-bench"), skills);
    LoadResult result =
        new SkillLoader(
                LoaderOptions.DEFAULTS.withParallelism(Runtime.getRuntime().availableProcessors()))
            .load(List.of(SkillRoot.of(tree.root(), Scope.REPO)));
    catalog = Catalog.of(1, result.skills(), result.diagnostics());
    core = List.of(new CoreTool("search_skills", "Search", ToolSpec.defaultInputSchema(), null));
    listing = new ToolListing(core, 100);
    view = new SessionView();
    view.load(catalog, List.of(tree.skillNames().get(0), tree.skillNames().get(1)), true);
    listing.all(catalog, view);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    tree.delete();
  }

  /** A page of {@code tools/list} for a session whose listing is cached. */
  @Benchmark
  public Object toolsListCached() throws InvalidCursorException {
    return listing.page(catalog, view, null);
  }

  /** Assembling a session's whole listing from the catalog (a cache miss). */
  @Benchmark
  public Object toolsListBuild() {
    return new ToolListing(core, 100).all(catalog, view);
  }

  /**
   * A new session's whole listing on a catalog the server already lists: the same two skills loaded
   * into a fresh view, listed by the server's one listing.
   */
  @Benchmark
  public Object toolsListNewSession() {
    SessionView fresh = new SessionView();
    fresh.load(catalog, List.of(tree.skillNames().get(0), tree.skillNames().get(1)), true);
    return listing.all(catalog, fresh);
  }

  /** One {@code search_skills} query, rotating through keyword, prefix and typo queries. */
  @Benchmark
  public List<SkillHit> searchSkills() {
    String q = QUERIES[query++ % QUERIES.length];
    return catalog.searchIndex().search(new SkillQuery(q, List.of(), null, null, 20, false));
  }
}
