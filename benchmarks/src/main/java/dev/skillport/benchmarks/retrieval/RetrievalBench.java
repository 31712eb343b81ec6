package dev.skillport.benchmarks.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.search.SemanticSearch;
import dev.skillport.registry.search.SkillHit;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.registry.search.SkillSearchIndex;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Scores {@code search_skills} on a query file over skill roots, as the dev-set scorer does: one
 * query line {@code {"id", "query", "kind", "gold": [names]}} is one search with {@code limit}
 * (default 10); a query's rank is the position of the first returned skill named in {@code gold}.
 * Prints R@1, R@3, R@5 (share of queries with a gold skill in the top k), MRR@10 and the p50/p95
 * latency of one search per kind and overall. The roots load as {@code skillport serve --skills}
 * loads them (first root wins a name clash); in hybrid mode scoring starts once every skill is
 * embedded, and the embedding time and rate are printed.
 *
 * <pre>
 * java -cp benchmarks.jar dev.skillport.benchmarks.retrieval.RetrievalBench \
 *   [--search hybrid|lexical] [--limit 10] [--details OUT.jsonl] [--cache EMBEDDINGS.bin] \
 *   QUERIES.jsonl ROOT...
 * </pre>
 */
public final class RetrievalBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int WARMUP = 3;

  private record Row(String kind, Integer rank, double ms, JsonNode query, List<String> returned) {}

  private RetrievalBench() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    SemanticSearch.Mode mode = SemanticSearch.Mode.HYBRID;
    int limit = 10;
    Path details = null;
    Path cache = null;
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--search" ->
            mode =
                SemanticSearch.Mode.parse(args[++i])
                    .orElseThrow(() -> new IllegalArgumentException("--search hybrid|lexical"));
        case "--limit" -> limit = Integer.parseInt(args[++i]);
        case "--details" -> details = Path.of(args[++i]);
        case "--cache" -> cache = Path.of(args[++i]);
        default -> rest.add(args[i]);
      }
    }
    if (rest.size() < 2) {
      throw new IllegalArgumentException("usage: [--search MODE] [--limit N] QUERIES ROOT...");
    }
    List<JsonNode> queries = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(rest.get(0)), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        queries.add(JSON.readTree(line));
      }
    }
    List<SkillRoot> roots = new ArrayList<>();
    for (String r : rest.subList(1, rest.size())) {
      roots.add(SkillRoot.of(Path.of(r), Scope.REPO));
    }
    LoadResult loaded =
        new SkillLoader(
                LoaderOptions.DEFAULTS.withParallelism(Runtime.getRuntime().availableProcessors()))
            .load(roots);
    long rssBefore = rssKib();
    try (SemanticSearch semantic = SemanticSearch.start(mode, cache)) {
      Catalog catalog = Catalog.of(1, loaded.skills(), loaded.diagnostics(), semantic);
      long start = System.nanoTime();
      SkillSearchIndex index = catalog.searchIndex();
      while (index.semanticState() == SemanticSearch.State.EMBEDDING) {
        Thread.sleep(50);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      out.printf(
          Locale.ROOT,
          "%d skills served, search %s%s%n",
          index.count(new SkillQuery("", List.of(), null, null, 1, false)),
          index.semanticState().ranking(),
          mode == SemanticSearch.Mode.HYBRID
              ? String.format(
                  Locale.ROOT,
                  " (model loaded and %d texts embedded in %.1f s, %.0f texts/s)",
                  semantic.embedded(),
                  seconds,
                  semantic.embedded() / seconds)
              : "");
      System.gc();
      out.printf(
          Locale.ROOT,
          "resident memory: %d MiB after loading the skills, %d MiB once search is %s%n",
          rssBefore / 1024,
          rssKib() / 1024,
          index.semanticState().ranking());
      warnUnserved(catalog, queries, out);
      for (JsonNode q : queries.subList(0, Math.min(WARMUP, queries.size()))) {
        index.search(query(q, limit));
      }
      List<Row> rows = new ArrayList<>();
      for (JsonNode q : queries) {
        long t0 = System.nanoTime();
        List<SkillHit> hits = index.search(query(q, limit));
        index.count(query(q, limit)); // search_skills reports the total too
        double ms = (System.nanoTime() - t0) / 1e6;
        List<String> names = hits.stream().map(h -> h.skill().name()).toList();
        Set<String> gold = new HashSet<>();
        q.path("gold").forEach(g -> gold.add(g.asText()));
        Integer rank = null;
        for (int i = 0; i < names.size(); i++) {
          if (gold.contains(names.get(i))) {
            rank = i + 1;
            break;
          }
        }
        rows.add(new Row(q.path("kind").asText(), rank, ms, q, names));
      }
      if (details != null) {
        writeDetails(details, rows);
      }
      print(rows, Math.min(10, limit), out);
    }
  }

  /** This process's resident set size (Linux), or 0 where it cannot be read. */
  private static long rssKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  private static SkillQuery query(JsonNode q, int limit) {
    return new SkillQuery(q.path("query").asText(), List.of(), null, null, limit, false);
  }

  private static void warnUnserved(Catalog catalog, List<JsonNode> queries, PrintStream out) {
    Set<String> unserved = new TreeSet<>();
    for (JsonNode q : queries) {
      q.path("gold")
          .forEach(
              g -> {
                if (!catalog.isLoadable(g.asText())) {
                  unserved.add(g.asText());
                }
              });
    }
    if (!unserved.isEmpty()) {
      out.println("warning: " + unserved.size() + " gold names not served: " + unserved);
    }
  }

  private static void writeDetails(Path file, List<Row> rows) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Row r : rows) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", r.query().path("id").asText());
        o.put("kind", r.kind());
        o.put("query", r.query().path("query").asText());
        o.set("gold", r.query().path("gold"));
        if (r.rank() == null) {
          o.putNull("rank");
        } else {
          o.put("rank", r.rank());
        }
        o.put("ms", r.ms());
        o.set("returned", JSON.valueToTree(r.returned()));
        w.write(o + "\n");
      }
    }
  }

  private static void print(List<Row> rows, int cut, PrintStream out) {
    TreeMap<String, List<Row>> byKind = new TreeMap<>();
    rows.forEach(r -> byKind.computeIfAbsent(r.kind(), k -> new ArrayList<>()).add(r));
    byKind.put("~all", rows);
    out.printf(
        Locale.ROOT,
        "%-11s%5s%8s%8s%8s%9s%9s%9s%n",
        "kind",
        "n",
        "R@1",
        "R@3",
        "R@5",
        "MRR@" + cut,
        "p50 ms",
        "p95 ms");
    byKind.forEach(
        (kind, list) -> {
          int n = list.size();
          double mrr =
              list.stream()
                      .filter(r -> r.rank() != null && r.rank() <= cut)
                      .mapToDouble(r -> 1.0 / r.rank())
                      .sum()
                  / n;
          List<Double> ms = list.stream().map(Row::ms).sorted().toList();
          out.printf(
              Locale.ROOT,
              "%-11s%5d%8.3f%8.3f%8.3f%9.3f%9.2f%9.2f%n",
              kind.replace("~", ""),
              n,
              recall(list, 1),
              recall(list, 3),
              recall(list, 5),
              mrr,
              percentile(ms, 50),
              percentile(ms, 95));
        });
  }

  private static double recall(List<Row> rows, int k) {
    return rows.stream().filter(r -> r.rank() != null && r.rank() <= k).count()
        / (double) rows.size();
  }

  /** Linear interpolation between the closest ranks, as the dev-set scorer computes it. */
  private static double percentile(List<Double> sorted, double p) {
    double k = (sorted.size() - 1) * p / 100;
    int lo = (int) k;
    int hi = Math.min(lo + 1, sorted.size() - 1);
    return sorted.get(lo) + (sorted.get(hi) - sorted.get(lo)) * (k - lo);
  }
}
