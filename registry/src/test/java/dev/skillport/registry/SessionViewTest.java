package dev.skillport.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.model.skill.SkillState;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionViewTest {
  private final Catalog catalog =
      TestSkills.catalog(
          1,
          TestSkills.named("base").tool("b1").build(),
          TestSkills.named("app")
              .depends("base")
              .tool("a1")
              .tool("a2", "extra")
              .group("extra", false)
              .tool("a3", "core-ops")
              .group("core-ops", true)
              .build(),
          TestSkills.named("waiting").state(SkillState.PENDING_DEPS).build(),
          TestSkills.named("broken").state(SkillState.SKIPPED).build());

  @Test
  void load_withDependency_loadsDependencyFirst() {
    SessionView view = new SessionView();
    SessionView.LoadOutcome out = view.load(catalog, List.of("app"), true);
    assertThat(out.loaded()).containsExactly("base", "app");
    assertThat(view.loadedSkills()).containsExactly("base", "app");
    assertThat(view.activeGroups("app")).containsExactly("core-ops");
  }

  @Test
  void load_twice_isIdempotentAndReportsAlreadyLoaded() {
    SessionView view = new SessionView();
    view.load(catalog, List.of("app"), true);
    long version = view.version();
    SessionView.LoadOutcome again = view.load(catalog, List.of("app"), true);
    assertThat(again.loaded()).isEmpty();
    assertThat(again.alreadyLoaded()).containsExactly("app");
    assertThat(view.version()).isEqualTo(version);
  }

  @Test
  void load_withoutGroupActivation_leavesGroupsInactive() {
    SessionView view = new SessionView();
    view.load(catalog, List.of("app"), false);
    assertThat(view.activeGroups("app")).isEmpty();
  }

  @Test
  void load_unknownPendingOrSkipped_reportsFailuresWithoutLoading() {
    SessionView view = new SessionView();
    SessionView.LoadOutcome out = view.load(catalog, List.of("nope", "waiting", "broken"), true);
    assertThat(out.loaded()).isEmpty();
    assertThat(out.failures()).containsOnlyKeys("nope", "waiting", "broken");
    assertThat(out.failures().get("waiting")).contains("missing dependency");
    assertThat(view.loadedSkills()).isEmpty();
  }

  @Test
  void unload_notLoaded_isNoOp() {
    SessionView view = new SessionView();
    assertThat(view.unload("app")).isFalse();
    assertThat(view.version()).isZero();
  }

  @Test
  void setGroupActive_changesVersionOnlyOnChange() {
    SessionView view = new SessionView();
    view.load(catalog, List.of("app"), true);
    long v = view.version();
    assertThat(view.setGroupActive("app", "extra", true)).isTrue();
    assertThat(view.version()).isGreaterThan(v);
    long v2 = view.version();
    assertThat(view.setGroupActive("app", "extra", true)).isFalse();
    assertThat(view.version()).isEqualTo(v2);
    assertThatThrownBy(() -> view.setGroupActive("base-x", "g", true))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void preloaded_startsWithSkillsAndDependencies() {
    SessionView view = SessionView.preloaded(catalog, List.of("app"));
    assertThat(view.loadedSkills()).containsExactly("base", "app");
  }

  @Test
  void catalogSkill_underscoreForm_findsHyphenatedSkill() {
    Catalog c = TestSkills.catalog(1, TestSkills.named("maya-geo").build());
    assertThat(c.skill("maya_geo")).isPresent();
  }
}
