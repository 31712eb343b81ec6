package dev.skillport.registry.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.skill.Layer;
import dev.skillport.api.skill.Scope;
import dev.skillport.api.skill.Skill;
import dev.skillport.api.skill.SkillState;
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
}
