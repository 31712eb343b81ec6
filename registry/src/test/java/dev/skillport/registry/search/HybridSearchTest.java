package dev.skillport.registry.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.model.skill.Skill;
import dev.skillport.registry.TestSkills;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HybridSearchTest {
  /**
   * Embeds text as counts of a few concepts, each named by several words, so that texts sharing no
   * word can still mean the same.
   */
  static final class ConceptEmbedder implements TextEmbedder {
    private static final Map<String, Integer> CONCEPTS =
        Map.ofEntries(
            Map.entry("photo", 0),
            Map.entry("picture", 0),
            Map.entry("image", 0),
            Map.entry("images", 0),
            Map.entry("shrink", 1),
            Map.entry("resize", 1),
            Map.entry("smaller", 1),
            Map.entry("spreadsheet", 2),
            Map.entry("excel", 2),
            Map.entry("workbook", 2),
            Map.entry("render", 3),
            Map.entry("scenes", 3));
    final AtomicInteger documents = new AtomicInteger();

    @Override
    public String model() {
      return "concepts";
    }

    @Override
    public float[] embedDocument(String text) {
      documents.incrementAndGet();
      return embedQuery(text);
    }

    @Override
    public float[] embedQuery(String text) {
      float[] v = new float[5];
      for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
        Integer c = CONCEPTS.get(w);
        v[c == null ? 4 : c] += c == null ? 0.05f : 1;
      }
      double norm = 0;
      for (float x : v) {
        norm += x * x;
      }
      for (int i = 0; i < v.length; i++) {
        v[i] /= (float) Math.sqrt(norm);
      }
      return v;
    }
  }

  private final ConceptEmbedder embedder = new ConceptEmbedder();
  private SemanticSearch semantic;

  private static final List<Skill> SKILLS =
      List.of(
          TestSkills.named("image-tools").description("Resize and convert images").build(),
          TestSkills.named("xlsx").description("Read and write Excel workbooks").build(),
          TestSkills.named("blender-render").description("Render scenes with Cycles").build(),
          TestSkills.named("form-builder").description("Build a form for users to fill").build(),
          TestSkills.named("formatter").description("Format source code").build());

  @AfterEach
  void close() {
    if (semantic != null) {
      semantic.close();
    }
  }

  private static SkillQuery q(String text) {
    return new SkillQuery(text, List.of(), null, null, 10, false);
  }

  private static List<String> names(List<SkillHit> hits) {
    return hits.stream().map(h -> h.skill().name()).toList();
  }

  private SkillSearchIndex readyIndex(List<Skill> skills) {
    SkillSearchIndex index = SkillSearchIndex.build(skills, semantic);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> index.semanticState() == SemanticSearch.State.READY);
    return index;
  }

  @Test
  void search_hybridReady_findsSkillSharingNoWordWithTheQuery() {
    semantic = SemanticSearch.with(() -> embedder, null);
    SkillSearchIndex index = readyIndex(SKILLS);

    assertThat(names(index.search(q("make my photo smaller")))).first().isEqualTo("image-tools");
    assertThat(names(index.search(q("spreadsheet")))).containsExactly("xlsx");
    assertThat(index.count(q("spreadsheet"))).isEqualTo(1);
  }

  @Test
  void search_lexicalOnly_doesNotFindTheParaphrase() {
    SkillSearchIndex index = SkillSearchIndex.build(SKILLS);

    assertThat(index.semanticState()).isEqualTo(SemanticSearch.State.OFF);
    assertThat(names(index.search(q("make my photo smaller")))).isEmpty();
  }

  @Test
  void search_beforeEmbeddingsAreReady_answersLexicallyAndSaysSo() {
    CountDownLatch release = new CountDownLatch(1);
    semantic =
        SemanticSearch.with(
            () -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return embedder;
            },
            null);
    SkillSearchIndex index = SkillSearchIndex.build(SKILLS, semantic);

    assertThat(index.semanticState()).isEqualTo(SemanticSearch.State.EMBEDDING);
    assertThat(names(index.search(q("resize images")))).containsExactly("image-tools");
    release.countDown();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> index.semanticState() == SemanticSearch.State.READY);
    assertThat(names(index.search(q("photo")))).containsExactly("image-tools");
  }

  @Test
  void search_modelFailsToLoad_staysLexicalWithoutError() {
    semantic =
        SemanticSearch.with(
            () -> {
              throw new IllegalStateException("no model jar");
            },
            null);
    SkillSearchIndex index = SkillSearchIndex.build(SKILLS, semantic);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> index.semanticState() == SemanticSearch.State.OFF);
    assertThat(names(index.search(q("resize images")))).containsExactly("image-tools");
    assertThat(names(index.search(q("photo")))).isEmpty();
  }

  @Test
  void search_lexicalMode_isOff() {
    semantic = SemanticSearch.start(SemanticSearch.Mode.LEXICAL, null);
    assertThat(SkillSearchIndex.build(SKILLS, semantic).semanticState())
        .isEqualTo(SemanticSearch.State.OFF);
  }

  @Test
  void rebuild_oneSkillChanged_reEmbedsOnlyThatSkill() {
    semantic = SemanticSearch.with(() -> embedder, null);
    readyIndex(SKILLS);
    int first = embedder.documents.get();
    assertThat(first).isEqualTo(SKILLS.size());

    List<Skill> changed =
        List.of(
            TestSkills.named("image-tools").description("Resize, crop and convert images").build(),
            SKILLS.get(1),
            SKILLS.get(2),
            SKILLS.get(3),
            SKILLS.get(4));
    readyIndex(changed);

    assertThat(embedder.documents.get() - first).isEqualTo(1);
  }

  @Test
  void restart_withCacheFile_embedsNothingAgain(@TempDir Path dir) {
    Path cache = dir.resolve("search-embeddings.bin");
    semantic = SemanticSearch.with(() -> embedder, cache);
    readyIndex(SKILLS);
    semantic.close();
    int before = embedder.documents.get();

    semantic = SemanticSearch.with(() -> embedder, cache);
    SkillSearchIndex again = readyIndex(SKILLS);

    assertThat(embedder.documents.get()).isEqualTo(before);
    assertThat(names(again.search(q("workbook")))).containsExactly("xlsx");
  }

  @Test
  void fuse_documentBothRankersLike_beatsOneOnlyOneRankerPutsFirst() {
    Map<Integer, Double> fused = RankFusion.fuse(List.of(List.of(1, 2, 3), List.of(4, 2, 1)));

    assertThat(fused.get(2)).isGreaterThan(fused.get(4));
    assertThat(fused.get(1)).isGreaterThan(fused.get(2));
    assertThat(fused.get(4)).isEqualTo(1.0 / (RankFusion.K + 1));
    assertThat(fused).containsOnlyKeys(1, 2, 3, 4);
  }

  @Test
  void search_wordWithExactMatch_doesNotMatchLongerOrOneLetterOffWords() {
    SkillSearchIndex index = SkillSearchIndex.build(SKILLS);

    assertThat(names(index.search(q("form")))).containsExactly("form-builder");
    assertThat(index.count(q("form"))).isEqualTo(1);
  }

  @Test
  void search_stopWords_matchNothing() {
    SkillSearchIndex index = SkillSearchIndex.build(SKILLS);

    assertThat(index.count(q("and with for a the"))).isZero();
    assertThat(names(index.search(q("render the scenes with a camera"))))
        .containsExactly("blender-render");
  }
}
