package dev.skillport.loader.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The written-out equals and hashCode keep a record's meaning: every component counts. */
class DiscoveredSkillTest {
  private static final Path DIR = Path.of("/skills/a");
  private static final Path FILE = DIR.resolve("SKILL.md");
  private static final SkillRoot ROOT = new SkillRoot(Path.of("/skills"), Scope.USER, "--skills");

  private static DiscoveredSkill skill() {
    return new DiscoveredSkill(DIR, FILE, ROOT, Path.of("/skills"), 0, false);
  }

  @Test
  void equalComponents_equalAndSameHash() {
    assertThat(skill()).isEqualTo(skill()).hasSameHashCodeAs(skill());
    assertThat(SkillRoot.of(DIR, Scope.USER))
        .isEqualTo(new SkillRoot(DIR, Scope.USER, null))
        .hasSameHashCodeAs(new SkillRoot(DIR, Scope.USER, ""));
  }

  @Test
  void anyComponentDiffering_notEqual() {
    List<DiscoveredSkill> others =
        List.of(
            new DiscoveredSkill(Path.of("/skills/b"), FILE, ROOT, Path.of("/skills"), 0, false),
            new DiscoveredSkill(DIR, DIR.resolve("skill.md"), ROOT, Path.of("/skills"), 0, false),
            new DiscoveredSkill(
                DIR,
                FILE,
                SkillRoot.of(Path.of("/skills"), Scope.USER),
                Path.of("/skills"),
                0,
                false),
            new DiscoveredSkill(DIR, FILE, ROOT, Path.of("/real"), 0, false),
            new DiscoveredSkill(DIR, FILE, ROOT, Path.of("/skills"), 1, false),
            new DiscoveredSkill(DIR, FILE, ROOT, Path.of("/skills"), 0, true));
    for (DiscoveredSkill other : others) {
      assertThat(other).isNotEqualTo(skill());
      assertThat(skill()).isNotEqualTo(other);
    }
    assertThat(skill()).isNotEqualTo(null).isNotEqualTo(DIR);
    assertThat(new SkillRoot(DIR, Scope.USER, "x"))
        .isNotEqualTo(new SkillRoot(DIR, Scope.USER, "y"))
        .isNotEqualTo(new SkillRoot(DIR, Scope.TEAM, "x"))
        .isNotEqualTo(new SkillRoot(FILE, Scope.USER, "x"));
  }
}
