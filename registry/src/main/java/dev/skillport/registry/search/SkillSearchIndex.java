package dev.skillport.registry.search;

import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Layer;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.IntPredicate;
import java.util.function.IntToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Searches the skills of one catalog snapshot (immutable, built with the snapshot). Only skills
 * that can be loaded now or later (available or waiting for a dependency) are searchable.
 *
 * <p>Ranking is lexical (BM25F over the fields) until the {@link SemanticSearch} has embedded every
 * text of the snapshot, then hybrid: the lexical and the semantic rankings fused by {@link
 * RankFusion}. A skill matches when a query word matches it or its meaning is close enough ({@link
 * #MIN_SIMILARITY}).
 */
public final class SkillSearchIndex {
  /**
   * The cosine similarity from which a skill counts as matching a query by meaning. Unrelated
   * English texts score about 0 to 0.2 under sentence-embedding models, related ones above 0.3.
   */
  static final double MIN_SIMILARITY = 0.3;

  /** Tool descriptions beyond this many characters add little to a skill's embedding. */
  private static final int MAX_TOOLS_TEXT = 600;

  private final List<Skill> skills;
  private final Bm25Index skillIndex;
  private final List<ToolEntry> tools;
  private final Bm25Index toolIndex;
  private final SemanticSearch semantic;
  private final Texts skillTexts;
  private final Texts toolTexts;
  private volatile float[][] skillVectors;
  private volatile float[][] toolVectors;
  // search_skills asks for the count and the page of one query in turn: rank once.
  private volatile Ranked lastSkills;

  /** A tool with the skill that declares it. */
  public record ToolEntry(Skill skill, ToolSpec tool) {}

  /** A ranked tool hit. */
  public record ToolHit(Skill skill, ToolSpec tool, double score) {}

  /** What is embedded for each document, with each text's digest. */
  private record Texts(List<String> texts, List<String> keys) {
    static Texts of(List<String> texts) {
      return new Texts(texts, texts.stream().map(SemanticSearch::digest).toList());
    }
  }

  /** A query's best page (at most {@link #MAX_PAGE}) and how many skills match in all. */
  private record Ranked(SkillQuery query, List<SkillHit> hits, int total) {}

  private static final int MAX_PAGE = 100;

  private SkillSearchIndex(List<Skill> skills, List<ToolEntry> tools, SemanticSearch semantic) {
    this.skills = skills;
    this.tools = tools;
    this.semantic = semantic;
    List<Map<Field, String>> skillDocs = new ArrayList<>(skills.size());
    for (Skill s : skills) {
      DccExtensions ext = s.manifest().extensions();
      Map<Field, String> f = Bm25Index.fields();
      f.put(Field.NAME, s.name());
      f.put(Field.TAGS, String.join(" ", ext.discovery().tags()));
      f.put(Field.HINT, ext.discovery().searchHint() == null ? "" : ext.discovery().searchHint());
      f.put(Field.ALIASES, String.join(" ", ext.discovery().searchAliases()));
      f.put(Field.DESCRIPTION, s.manifest().description());
      f.put(
          Field.TOOL_NAMES,
          s.tools().stream().map(ToolSpec::name).collect(Collectors.joining(" ")));
      skillDocs.add(f);
    }
    this.skillIndex = Bm25Index.build(skillDocs);
    List<Map<Field, String>> toolDocs = new ArrayList<>(tools.size());
    for (ToolEntry t : tools) {
      Map<Field, String> f = Bm25Index.fields();
      f.put(Field.NAME, t.tool().name());
      f.put(Field.ALIASES, String.join(" ", t.tool().searchAliases()));
      f.put(Field.DESCRIPTION, t.tool().description());
      f.put(Field.TAGS, t.skill().name());
      toolDocs.add(f);
    }
    this.toolIndex = Bm25Index.build(toolDocs);
    this.skillTexts = Texts.of(skills.stream().map(SkillSearchIndex::skillText).toList());
    this.toolTexts = Texts.of(tools.stream().map(SkillSearchIndex::toolText).toList());
  }

  /** Indexes the searchable skills among {@code all}, lexically only. */
  public static SkillSearchIndex build(List<Skill> all) {
    return build(all, SemanticSearch.off());
  }

  /** Indexes the searchable skills among {@code all}; {@code semantic} adds ranking by meaning. */
  public static SkillSearchIndex build(List<Skill> all, SemanticSearch semantic) {
    List<Skill> searchable =
        all.stream()
            .filter(s -> s.state() == SkillState.AVAILABLE || s.state() == SkillState.PENDING_DEPS)
            .toList();
    List<ToolEntry> tools = new ArrayList<>();
    searchable.forEach(s -> s.tools().forEach(t -> tools.add(new ToolEntry(s, t))));
    SkillSearchIndex index = new SkillSearchIndex(searchable, List.copyOf(tools), semantic);
    index.vectors(); // queues the texts to embed, off this thread
    return index;
  }

  /**
   * The text a skill's meaning is read from: its name as words, description, search hint, aliases
   * and tags (what the author wrote to be found by), then its tools' names and descriptions (what
   * it can do), capped so that many tools do not drown the description.
   */
  static String skillText(Skill s) {
    DccExtensions ext = s.manifest().extensions();
    StringBuilder b = new StringBuilder(s.name().replace('-', ' ').replace('_', ' '));
    b.append(": ").append(s.manifest().description());
    String hint = ext.discovery().searchHint();
    if (hint != null && !hint.isBlank()) {
      b.append(' ').append(hint);
    }
    if (!ext.discovery().searchAliases().isEmpty()) {
      b.append(" Also: ").append(String.join(", ", ext.discovery().searchAliases())).append('.');
    }
    if (!ext.discovery().tags().isEmpty()) {
      b.append(" Tags: ").append(String.join(", ", ext.discovery().tags())).append('.');
    }
    if (!s.tools().isEmpty()) {
      StringBuilder t = new StringBuilder(" Tools:");
      for (ToolSpec tool : s.tools()) {
        t.append(' ').append(tool.name().replace('_', ' ')).append(" (").append(tool.description());
        t.append(')');
        if (t.length() > MAX_TOOLS_TEXT) {
          break;
        }
      }
      b.append(t, 0, Math.min(t.length(), MAX_TOOLS_TEXT));
    }
    return b.toString();
  }

  private static String toolText(ToolEntry t) {
    return t.tool().name().replace('_', ' ')
        + ": "
        + t.tool().description()
        + " (skill "
        + t.skill().name()
        + ")";
  }

  /**
   * Where semantic ranking stands for this snapshot: {@code READY} once its searches are hybrid.
   */
  public SemanticSearch.State semanticState() {
    return vectors().isPresent() ? SemanticSearch.State.READY : semantic.state();
  }

  private Optional<float[][]> vectors() {
    float[][] v = skillVectors;
    if (v == null) {
      Optional<float[][]> skillsDone = semantic.vectors(skillTexts.keys(), skillTexts.texts());
      Optional<float[][]> toolsDone = semantic.vectors(toolTexts.keys(), toolTexts.texts());
      if (skillsDone.isEmpty() || toolsDone.isEmpty()) {
        return Optional.empty();
      }
      toolVectors = toolsDone.get();
      skillVectors = v = skillsDone.get();
    }
    return Optional.of(v);
  }

  /** Ranked skills for a query; a blank query browses by scope (highest first) then name. */
  public List<SkillHit> search(SkillQuery q) {
    List<SkillHit> hits = ranked(q).hits();
    return hits.size() > q.limit() ? List.copyOf(hits.subList(0, q.limit())) : hits;
  }

  /** How many skills match the filters and query, before the limit. */
  public int count(SkillQuery q) {
    return ranked(q).total();
  }

  private Ranked ranked(SkillQuery q) {
    Ranked last = lastSkills;
    // The page of a query asked for with another limit ranks the same: compare without it.
    SkillQuery key =
        new SkillQuery(q.query(), q.tags(), q.dcc(), q.scope(), 100, q.includeHidden());
    if (last != null && last.query().equals(key)) {
      return last;
    }
    List<SkillHit> hits = new ArrayList<>();
    int total;
    if (q.query().isBlank()) {
      for (Skill s : skills) {
        if (accepts(s, q)) {
          hits.add(new SkillHit(s, 0));
        }
      }
      hits.sort(
          Comparator.comparing((SkillHit h) -> h.skill().scope())
              .reversed()
              .thenComparing(h -> h.skill().name()));
      total = hits.size();
    } else {
      IntToDoubleFunction weight =
          doc -> layerWeight(skills.get(doc).manifest().extensions().discovery().layer());
      Scored scored =
          rank(
              skillIndex,
              vectors(),
              q.query(),
              doc -> accepts(skills.get(doc), q),
              weight,
              MAX_PAGE);
      scored.top().forEach((doc, score) -> hits.add(new SkillHit(skills.get(doc), score)));
      hits.sort(
          Comparator.comparingDouble(SkillHit::score)
              .reversed()
              .thenComparing(h -> h.skill().name()));
      total = scored.total();
    }
    Ranked out =
        new Ranked(
            key, List.copyOf(hits.size() > MAX_PAGE ? hits.subList(0, MAX_PAGE) : hits), total);
    lastSkills = out;
    return out;
  }

  /**
   * The best {@code depth} documents with their scores, and how many accepted documents match in
   * all.
   */
  private record Scored(Map<Integer, Double> top, int total) {}

  /**
   * The accepted documents matching {@code query}: BM25 times {@code weight} when {@code vectors}
   * is empty, else the best {@code depth} of the lexical and of the semantic ranking fused (a
   * document below both cuts could only reach the page by ranking low in both).
   */
  private Scored rank(
      Bm25Index lexical,
      Optional<float[][]> vectors,
      String query,
      IntPredicate accepts,
      IntToDoubleFunction weight,
      int depth) {
    Map<Integer, Double> lexicalScores = new HashMap<>();
    lexical
        .score(query)
        .forEach(
            (doc, score) -> {
              if (accepts.test(doc)) {
                lexicalScores.put(doc, score * weight.applyAsDouble(doc));
              }
            });
    Optional<float[]> q = vectors.isPresent() ? semantic.query(query) : Optional.empty();
    if (q.isEmpty()) {
      return new Scored(lexicalScores, lexicalScores.size());
    }
    float[][] docs = vectors.get();
    float[] qv = q.get();
    Map<Integer, Double> semanticScores = new HashMap<>();
    int onlySemantic = 0;
    for (int doc = 0; doc < docs.length; doc++) {
      float[] v = docs[doc];
      if (v.length != qv.length) {
        continue;
      }
      float cos = 0;
      for (int i = 0; i < v.length; i++) {
        cos += v[i] * qv[i];
      }
      if (cos >= MIN_SIMILARITY && accepts.test(doc)) {
        semanticScores.put(doc, cos * weight.applyAsDouble(doc));
        if (!lexicalScores.containsKey(doc)) {
          onlySemantic++;
        }
      }
    }
    Map<Integer, Double> fused =
        RankFusion.fuse(List.of(best(lexicalScores, depth), best(semanticScores, depth)));
    return new Scored(fused, lexicalScores.size() + onlySemantic);
  }

  /** The {@code k} best-scoring documents, best first (ties by document order). */
  static List<Integer> best(Map<Integer, Double> scores, int k) {
    Comparator<Integer> better =
        Comparator.comparingDouble((Integer d) -> scores.get(d))
            .reversed()
            .thenComparing(Comparator.naturalOrder());
    if (scores.size() <= k) {
      List<Integer> all = new ArrayList<>(scores.keySet());
      all.sort(better);
      return all;
    }
    PriorityQueue<Integer> kept = new PriorityQueue<>(k + 1, better.reversed());
    for (Integer doc : scores.keySet()) {
      kept.add(doc);
      if (kept.size() > k) {
        kept.poll();
      }
    }
    List<Integer> out = new ArrayList<>(kept);
    out.sort(better);
    return out;
  }

  /** Ranked tools across searchable skills, best first. */
  public List<ToolHit> searchTools(String query, int limit) {
    List<ToolHit> hits = new ArrayList<>();
    // The tools' vectors are set together with the skills'.
    Optional<float[][]> tv = vectors().map(ready -> toolVectors);
    Map<Integer, Double> scores =
        rank(
                toolIndex,
                tv,
                query,
                doc ->
                    tools
                        .get(doc)
                        .skill()
                        .manifest()
                        .extensions()
                        .discovery()
                        .allowImplicitInvocation(),
                doc -> 1.0,
                Integer.MAX_VALUE)
            .top();
    scores.forEach(
        (doc, score) -> {
          ToolEntry t = tools.get(doc);
          hits.add(new ToolHit(t.skill(), t.tool(), score));
        });
    hits.sort(
        Comparator.comparingDouble(ToolHit::score)
            .reversed()
            .thenComparing(h -> h.skill().name())
            .thenComparing(h -> h.tool().name()));
    return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
  }

  private static boolean accepts(Skill s, SkillQuery q) {
    DccExtensions ext = s.manifest().extensions();
    if (!q.includeHidden() && !ext.discovery().allowImplicitInvocation()) {
      return false;
    }
    if (q.dcc() != null && !q.dcc().isBlank() && !ext.dcc().equalsIgnoreCase(q.dcc())) {
      return false;
    }
    if (q.scope() != null && s.scope() != q.scope()) {
      return false;
    }
    for (String tag : q.tags()) {
      String want = tag.toLowerCase(Locale.ROOT);
      if (ext.discovery().tags().stream().noneMatch(t -> t.toLowerCase(Locale.ROOT).equals(want))) {
        return false;
      }
    }
    return true;
  }

  /** Domain skills rank above infrastructure, harness and example skills of equal relevance. */
  static double layerWeight(Layer layer) {
    return switch (layer) {
      case DOMAIN -> 1.0;
      case INFRASTRUCTURE -> 0.85;
      case THIN_HARNESS -> 0.7;
      case EXAMPLE -> 0.5;
    };
  }
}
