package dev.skillport.loader.resolve;

import static dev.skillport.loader.resolve.SkillResolverTest.skill;
import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import java.util.List;
import org.junit.jupiter.api.Test;

class DependencyOrderTest {
  private static List<String> names(List<Skill> skills) {
    return skills.stream().map(Skill::name).toList();
  }

  @Test
  void of_diamond_putsDependenciesFirstOnce() {
    List<Skill> skills =
        List.of(
            skill("app", Scope.REPO, 0, "app", "left", "right"),
            skill("left", Scope.REPO, 0, "left", "base"),
            skill("right", Scope.REPO, 0, "right", "base"),
            skill("base", Scope.REPO, 0, "base"));
    assertThat(names(DependencyOrder.of(skills, "app")))
        .containsExactly("base", "left", "right", "app");
  }

  @Test
  void of_unknownName_isEmpty() {
    assertThat(DependencyOrder.of(List.of(skill("a", Scope.REPO, 0, "a")), "zzz")).isEmpty();
  }

  @Test
  void of_skipsShadowedAndMissing() {
    List<Skill> resolved =
        SkillResolver.resolve(
                List.of(
                    skill("a", Scope.REPO, 0, "a", "gone", "b"),
                    skill("b", Scope.REPO, 0, "b"),
                    skill("b", Scope.TEAM, 0, "tb")))
            .skills();
    assertThat(resolved.get(1).state()).isEqualTo(SkillState.SHADOWED);
    List<Skill> order = DependencyOrder.of(resolved, "a");
    assertThat(names(order)).containsExactly("b", "a");
    assertThat(order.get(0).scope()).isEqualTo(Scope.TEAM);
  }

  @Test
  void of_cycle_terminates() {
    List<Skill> skills =
        List.of(skill("a", Scope.REPO, 0, "a", "b"), skill("b", Scope.REPO, 0, "b", "a"));
    assertThat(names(DependencyOrder.of(skills, "a"))).containsExactly("b", "a");
  }

  @Test
  void all_ordersEveryUsableSkillDependenciesFirst() {
    List<Skill> skills =
        List.of(
            skill("zed", Scope.REPO, 0, "zed"),
            skill("app", Scope.REPO, 0, "app", "zed"),
            skill("broken", Scope.REPO, 0, "broken", SkillState.SKIPPED));
    assertThat(names(DependencyOrder.all(skills))).containsExactly("zed", "app");
  }
}
