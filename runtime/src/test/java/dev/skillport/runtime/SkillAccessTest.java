package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.util.List;
import org.junit.jupiter.api.Test;

class SkillAccessTest {
  @Test
  void skillDenial_denyListAndNonEmptyAllowList_denyWithTheFlagInTheReason() {
    SkillAccess access = SkillAccess.ofSkills(List.of("a", "b"), List.of("b"));

    assertThat(access.skillDenial("a")).isEmpty();
    assertThat(access.skillDenial("b")).get(STRING).contains("--deny-skill");
    assertThat(access.skillDenial("c")).get(STRING).contains("--allow-skill");
  }

  @Test
  void open_deniesNothing() {
    assertThat(SkillAccess.OPEN.isOpen()).isTrue();
    assertThat(SkillAccess.OPEN.skillDenial("any")).isEmpty();
    assertThat(SkillAccess.OPEN.toolDenial("any", "tool")).isEmpty();
    assertThat(SkillAccess.ofSkills(List.of(), List.of("x")).isOpen()).isFalse();
  }

  @Test
  void toolLists_denyNamedToolsAndSkillsTheAllowListNamesNoToolOf() {
    SkillAccess access =
        SkillAccess.OPEN.withTools(List.of("geo/cube", "geo/sphere"), List.of("geo/sphere"));

    assertThat(access.skillDenial("geo")).isEmpty();
    assertThat(access.skillDenial("paint")).get(STRING).contains("--allow-tool");
    assertThat(access.toolDenial("geo", "cube")).isEmpty();
    assertThat(access.toolDenial("geo", "sphere")).get(STRING).contains("--deny-tool");
    assertThat(access.toolDenial("geo", "cone")).get(STRING).contains("--allow-tool");
    assertThat(SkillAccess.OPEN.withTools(List.of(), List.of("geo/cone")).skillDenial("geo"))
        .isEmpty();
  }

  @Test
  void constructor_toolNotSkillSlashTool_isRefusedNamingTheFlag() {
    for (String bad : List.of("cube", "/cube", "geo/", "geo/cube/x")) {
      assertThatThrownBy(() -> SkillAccess.OPEN.withTools(List.of(bad), List.of()))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--allow-tool " + bad);
    }
  }
}
