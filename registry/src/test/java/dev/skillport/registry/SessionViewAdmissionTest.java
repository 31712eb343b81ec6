package dev.skillport.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.Skill;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The admission check a server passes to {@link SessionView#load}: host requirements. */
class SessionViewAdmissionTest {
  private final Catalog catalog =
      TestSkills.catalog(
          1,
          TestSkills.named("host-base").dcc("maya").tool("b1").build(),
          TestSkills.named("app").depends("host-base").tool("a1").build(),
          TestSkills.named("plain").tool("p1").build());

  private static Optional<String> refuseMaya(Skill skill) {
    return skill.manifest().extensions().dcc().equals("maya")
        ? Optional.of("no maya adapter")
        : Optional.empty();
  }

  @Test
  void load_refusedSkill_failsWithTheReasonAndLoadsNothing() {
    SessionView view = new SessionView();
    SessionView.LoadOutcome out =
        view.load(catalog, List.of("host-base"), true, SessionViewAdmissionTest::refuseMaya);
    assertThat(out.loaded()).isEmpty();
    assertThat(out.failures()).containsEntry("host-base", "no maya adapter");
    assertThat(view.loadedSkills()).isEmpty();
  }

  @Test
  void load_refusedDependency_failsTheRequestedSkillNamingTheDependency() {
    SessionView view = new SessionView();
    SessionView.LoadOutcome out =
        view.load(catalog, List.of("app", "plain"), true, SessionViewAdmissionTest::refuseMaya);
    assertThat(out.failures().get("app")).isEqualTo("dependency host-base: no maya adapter");
    assertThat(out.loaded()).containsExactly("plain");
  }

  @Test
  void load_withoutAdmission_loadsEverything() {
    SessionView view = new SessionView();
    assertThat(view.load(catalog, List.of("app"), true).loaded())
        .containsExactly("host-base", "app");
  }
}
