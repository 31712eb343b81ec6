package dev.skillport.benchmarks.registry;

import dev.skillport.benchmarks.loader.GeneratedTree;
import dev.skillport.benchmarks.loader.SkillTreeGenerator;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.search.SemanticSearch;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.registry.search.SkillSearchIndex;
import dev.skillport.registry.search.TextEmbedder;
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
 * One {@code search_skills} request (the ranked page and the total) over 10,000 skills once their
 * embeddings are ready, hybrid and lexical, on one thread. Every query is new (a counter is
 * appended), so each hybrid search embeds its query with the real model. The skills' vectors are
 * the real model's embeddings of 64 of their descriptions, shared round-robin: embedding 10,000
 * texts for each trial would take minutes, and a search costs the same whatever the vectors hold,
 * as long as similarities spread as real ones do.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:ActiveProcessorCount=1"})
public class HybridSearchBenchmark {
  private static final int POOL = 64;
  private static final String[] QUERIES = {
    "make the mesh smoother before export",
    "turn my animation into a video file",
    "find textures that look like wood",
    "set up lights for a product shot",
    "bake the simulation so playback is fast",
    "clean up a scanned model with holes",
    "change the units of the whole scene"
  };

  @Param({"10000"})
  public int skills;

  private GeneratedTree tree;
  private SemanticSearch semantic;
  private SkillSearchIndex hybrid;
  private SkillSearchIndex lexical;
  private int query;

  @Setup(Level.Trial)
  public void setUp() throws IOException, InterruptedException {
    tree =
        SkillTreeGenerator.seeded(42)
            .write(Files.createTempDirectory("skillport-hybrid-bench"), skills);
    LoadResult result =
        new SkillLoader(LoaderOptions.DEFAULTS)
            .load(List.of(SkillRoot.of(tree.root(), Scope.REPO)));
    TextEmbedder model = TextEmbedder.shipped();
    float[][] pool = new float[POOL][];
    for (int i = 0; i < POOL; i++) {
      pool[i] = model.embedDocument(result.skills().get(i).manifest().description());
    }
    TextEmbedder pooled =
        new TextEmbedder() {
          @Override
          public String model() {
            return "pooled";
          }

          @Override
          public float[] embedDocument(String text) {
            return pool[Math.floorMod(text.hashCode(), POOL)];
          }

          @Override
          public float[] embedQuery(String text) {
            return model.embedQuery(text);
          }
        };
    semantic = SemanticSearch.with(() -> pooled, null);
    hybrid = Catalog.of(1, result.skills(), result.diagnostics(), semantic).searchIndex();
    while (hybrid.semanticState() != SemanticSearch.State.READY) {
      Thread.sleep(20);
    }
    lexical = Catalog.of(1, result.skills(), result.diagnostics()).searchIndex();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    semantic.close();
    tree.delete();
  }

  private SkillQuery next() {
    int n = query++;
    return new SkillQuery(QUERIES[n % QUERIES.length] + " " + n, List.of(), null, null, 20, false);
  }

  /** A hybrid {@code search_skills}: embed the query, rank both ways, fuse, count. */
  @Benchmark
  public int searchHybrid() {
    SkillQuery q = next();
    return hybrid.search(q).size() + hybrid.count(q);
  }

  /** The same request ranked lexically. */
  @Benchmark
  public int searchLexical() {
    SkillQuery q = next();
    return lexical.search(q).size() + lexical.count(q);
  }
}
