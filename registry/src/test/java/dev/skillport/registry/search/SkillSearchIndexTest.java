package dev.skillport.registry.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.Layer;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.registry.TestSkills;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkillSearchIndexTest {
  private final SkillSearchIndex index =
      SkillSearchIndex.build(
          List.of(
              TestSkills.named("maya-geometry")
                  .dcc("maya")
                  .tags("modeling", "mesh")
                  .hint("polygon cube sphere extrude")
                  .tool("create_cube")
                  .build(),
              TestSkills.named("blender-render")
                  .dcc("blender")
                  .tags("render")
                  .description("Render scenes with Cycles")
                  .tool("render_frame")
                  .build(),
              TestSkills.named("image-tools")
                  .tags("image", "convert")
                  .description("Resize and convert images")
                  .tool("resize_image")
                  .build(),
              TestSkills.named("example-mesh")
                  .layer(Layer.EXAMPLE)
                  .tags("mesh")
                  .hint("polygon example")
                  .build(),
              TestSkills.named("secret-ops").hidden().tags("mesh").build(),
              TestSkills.named("team-tool").scope(Scope.TEAM).build(),
              TestSkills.named("gone").state(SkillState.SHADOWED).tags("mesh").build()));

  private static List<String> names(List<SkillHit> hits) {
    return hits.stream().map(h -> h.skill().name()).toList();
  }

  private static SkillQuery q(String text) {
    return new SkillQuery(text, List.of(), null, null, 20, false);
  }

  @Test
  void search_keyword_findsSkillByHint() {
    assertThat(names(index.search(q("extrude")))).containsExactly("maya-geometry");
  }

  @Test
  void search_prefix_matchesLongerTerm() {
    assertThat(names(index.search(q("rend")))).first().isEqualTo("blender-render");
  }

  @Test
  void search_typo_stillFindsSkill() {
    assertThat(names(index.search(q("polygn")))).contains("maya-geometry");
    assertThat(names(index.search(q("imgae")))).contains("image-tools");
  }

  @Test
  void search_layerWeight_ranksDomainAboveExample() {
    assertThat(names(index.search(q("polygon")))).containsExactly("maya-geometry", "example-mesh");
  }

  @Test
  void search_filters_tagsAndDccAndScope() {
    assertThat(names(index.search(new SkillQuery("", List.of("MESH"), null, null, 20, false))))
        .containsExactlyInAnyOrder("maya-geometry", "example-mesh");
    assertThat(names(index.search(new SkillQuery("", List.of(), "maya", null, 20, false))))
        .containsExactly("maya-geometry");
    assertThat(names(index.search(new SkillQuery("", List.of(), null, Scope.TEAM, 20, false))))
        .containsExactly("team-tool");
  }

  @Test
  void search_hiddenSkills_onlyWithIncludeHidden() {
    assertThat(names(index.search(q("secret")))).isEmpty();
    assertThat(names(index.search(new SkillQuery("secret", List.of(), null, null, 20, true))))
        .containsExactly("secret-ops");
  }

  @Test
  void search_emptyQuery_browsesByScopeThenName() {
    List<String> all = names(index.search(q("")));
    assertThat(all.get(0)).isEqualTo("team-tool");
    assertThat(all.subList(1, all.size())).isSorted();
    assertThat(all).doesNotContain("gone", "secret-ops");
  }

  @Test
  void search_limit_capsResultsButCountDoesNot() {
    SkillQuery one = new SkillQuery("", List.of(), null, null, 1, false);
    assertThat(index.search(one)).hasSize(1);
    assertThat(index.count(one)).isEqualTo(5);
  }

  @Test
  void searchTools_findsToolByWordOfItsName() {
    List<SkillSearchIndex.ToolHit> hits = index.searchTools("cube", 10);
    assertThat(hits).extracting(h -> h.tool().name()).containsExactly("create_cube");
    Skill owner = hits.get(0).skill();
    assertThat(owner.name()).isEqualTo("maya-geometry");
  }

  @Test
  void withinOneEdit_coversEditKinds() {
    assertThat(TermMatcher.withinOneEdit("render", "rendre")).isTrue();
    assertThat(TermMatcher.withinOneEdit("render", "rendr")).isTrue();
    assertThat(TermMatcher.withinOneEdit("render", "renderx")).isTrue();
    assertThat(TermMatcher.withinOneEdit("render", "ronder")).isTrue();
    assertThat(TermMatcher.withinOneEdit("render", "rodner")).isFalse();
  }

  /** Four skills about rendering, written the ways skill authors write it, and one that is not. */
  private final SkillSearchIndex renderSkills =
      SkillSearchIndex.build(
          List.of(
              TestSkills.named("blender-render").description("Render scenes with Cycles").build(),
              TestSkills.named("maya-arnold").hint("renders frames with Arnold").build(),
              TestSkills.named("houdini-karma").description("Rendering for Solaris stages").build(),
              TestSkills.named("farm-submit").tool("submit_rendered_frames").build(),
              TestSkills.named("image-tools").description("Resize and convert images").build()));

  private List<String> renderHits(String query) {
    return names(renderSkills.search(q(query)));
  }

  @Test
  void search_inflectedForms_findTheSameSkillsThroughStems() {
    List<String> all = List.of("blender-render", "maya-arnold", "houdini-karma", "farm-submit");
    for (String query : List.of("render", "rendering", "renders", "rendered", "Renderings")) {
      assertThat(renderHits(query)).as(query).containsExactlyInAnyOrderElementsOf(all);
    }
  }

  @Test
  void search_stemsKeepTypoAndPrefixTolerance() {
    assertThat(renderHits("rendring")).as("typo").contains("houdini-karma", "blender-render");
    assertThat(renderHits("rend")).as("prefix").hasSize(4);
    assertThat(names(index.search(q("poly"))))
        .as("a prefix whose stem is no prefix (poly stems to poli)")
        .first()
        .isEqualTo("maya-geometry");
    assertThat(renderHits("imaging")).as("stem of image").containsExactly("image-tools");
    assertThat(renderHits("converting images")).containsExactly("image-tools");
  }

  @Test
  void terms_areSnowballEnglishStems_shortAndNonLetterTokensKept() {
    assertThat(Tokenizer.terms("Rendering renders rendered generously news"))
        .containsExactly("render", "render", "render", "generous", "news");
    assertThat(Tokenizer.terms("usd2 gltf_export v2 ui"))
        .containsExactly("usd2", "gltf", "export", "v2", "ui");
  }
}
