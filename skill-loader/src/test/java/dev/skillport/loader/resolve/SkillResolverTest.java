package dev.skillport.loader.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillLocation;
import dev.skillport.model.skill.SkillManifest;
import dev.skillport.model.skill.SkillState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SkillResolverTest {
  /** A skill for resolution tests; the folders need not exist. */
  static Skill skill(String name, Scope scope, int rootOrder, String dir, String... depends) {
    return skill(name, scope, rootOrder, dir, SkillState.AVAILABLE, depends);
  }

  static Skill skill(
      String name, Scope scope, int rootOrder, String dir, SkillState state, String... depends) {
    DccExtensions ext = DccExtensions.builder().depends(List.of(depends)).build();
    SkillManifest manifest =
        new SkillManifest(name, "d", null, null, List.of(), Map.of(), Map.of(), "", ext);
    Path directory = Path.of("/roots", dir);
    SkillLocation location =
        new SkillLocation(
            directory, directory.resolve("SKILL.md"), Path.of("/roots"), scope, rootOrder);
    return new Skill(
        manifest, location, state, null, null, null, null, null, null, null, null, null);
  }

  private static Skill named(Resolution r, String dir) {
    return r.skills().stream()
        .filter(s -> s.location().directory().endsWith(dir))
        .findFirst()
        .orElseThrow();
  }

  private static List<DiagnosticCode> codesFor(Resolution r, String skill) {
    return r.diagnostics().stream()
        .filter(d -> skill.equals(d.skill()))
        .map(Diagnostic::code)
        .toList();
  }

  @Test
  void resolve_higherScope_winsAndLoserIsShadowed() {
    Resolution r =
        SkillResolver.resolve(
            List.of(skill("x", Scope.REPO, 0, "repo/x"), skill("x", Scope.TEAM, 3, "team/x")));
    assertThat(named(r, "team/x").state()).isEqualTo(SkillState.AVAILABLE);
    Skill loser = named(r, "repo/x");
    assertThat(loser.state()).isEqualTo(SkillState.SHADOWED);
    assertThat(loser.shadowedBy()).isEqualTo(Path.of("/roots/team/x").toString());
    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SHADOWED);
              assertThat(d.message()).contains(Path.of("/roots/team/x").toString());
              assertThat(d.file()).isEqualTo(Path.of("/roots/repo/x/SKILL.md"));
            });
  }

  @Test
  void resolve_sameScope_lowerRootOrderWins() {
    Resolution r =
        SkillResolver.resolve(
            List.of(skill("x", Scope.REPO, 2, "a/x"), skill("x", Scope.REPO, 1, "b/x")));
    assertThat(named(r, "b/x").state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(named(r, "a/x").state()).isEqualTo(SkillState.SHADOWED);
  }

  @Test
  void resolve_sameRoot_pathSortingFirstWins() {
    Resolution r =
        SkillResolver.resolve(
            List.of(skill("x", Scope.REPO, 0, "r/zz"), skill("x", Scope.REPO, 0, "r/aa")));
    assertThat(named(r, "r/aa").state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(named(r, "r/zz").shadowedBy()).endsWith("aa");
  }

  @Test
  void resolve_brokenHigherScopeSkill_doesNotHideValidOne() {
    Resolution r =
        SkillResolver.resolve(
            List.of(
                skill("x", Scope.ADMIN, 0, "admin/x", SkillState.SKIPPED),
                skill("x", Scope.REPO, 1, "repo/x")));
    assertThat(named(r, "repo/x").state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(named(r, "admin/x").state()).isEqualTo(SkillState.SKIPPED);
    assertThat(r.diagnostics()).isEmpty();
  }

  @Test
  void resolve_threeWay_onlyOneWinner() {
    Resolution r =
        SkillResolver.resolve(
            List.of(
                skill("x", Scope.USER, 0, "u/x"),
                skill("x", Scope.SYSTEM, 5, "s/x"),
                skill("x", Scope.REPO, 0, "r/x")));
    assertThat(r.skills())
        .extracting(Skill::state)
        .containsExactly(SkillState.SHADOWED, SkillState.AVAILABLE, SkillState.SHADOWED);
    assertThat(r.skills().get(0).shadowedBy()).endsWith("x").contains("s");
  }

  @Test
  void resolve_missingDependency_isPending() {
    Resolution r = SkillResolver.resolve(List.of(skill("a", Scope.REPO, 0, "a", "ghost")));
    assertThat(r.skills().get(0).state()).isEqualTo(SkillState.PENDING_DEPS);
    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.DEPENDENCY_MISSING);
              assertThat(d.message()).contains("'ghost'");
            });
  }

  @Test
  void resolve_dependencyNoSkillCanBeNamed_saysSo() {
    Resolution r =
        SkillResolver.resolve(
            List.of(
                skill("a", Scope.REPO, 0, "a", "Image_Tools"),
                skill("b", Scope.REPO, 0, "b", "image-tools")));
    assertThat(r.skills()).extracting(Skill::state).containsOnly(SkillState.PENDING_DEPS);
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code)
        .containsOnly(DiagnosticCode.DEPENDENCY_MISSING);
    assertThat(r.diagnostics())
        .filteredOn(d -> "a".equals(d.skill()))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("'Image_Tools'", "no skill can be named"));
    assertThat(r.diagnostics())
        .filteredOn(d -> "b".equals(d.skill()))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).endsWith("which is not available"));
  }

  @Test
  void resolve_presentDependency_isAvailable() {
    Resolution r =
        SkillResolver.resolve(
            List.of(skill("a", Scope.REPO, 0, "a", "b"), skill("b", Scope.REPO, 0, "b")));
    assertThat(r.skills()).extracting(Skill::state).containsOnly(SkillState.AVAILABLE);
    assertThat(r.diagnostics()).isEmpty();
  }

  @Test
  void resolve_dependencyOnPending_isPendingTransitively() {
    Resolution r =
        SkillResolver.resolve(
            List.of(
                skill("top", Scope.REPO, 0, "top", "mid"),
                skill("mid", Scope.REPO, 0, "mid", "low"),
                skill("low", Scope.REPO, 0, "low", "ghost"),
                skill("free", Scope.REPO, 0, "free")));
    assertThat(r.skills())
        .extracting(Skill::state)
        .containsExactly(
            SkillState.PENDING_DEPS,
            SkillState.PENDING_DEPS,
            SkillState.PENDING_DEPS,
            SkillState.AVAILABLE);
    assertThat(codesFor(r, "top")).containsExactly(DiagnosticCode.DEPENDENCY_MISSING);
  }

  @Test
  void resolve_dependencyOnRejectedSkill_isPending() {
    Resolution r =
        SkillResolver.resolve(
            List.of(
                skill("a", Scope.REPO, 0, "a", "b"),
                skill("b", Scope.REPO, 0, "b", SkillState.SKIPPED)));
    assertThat(named(r, "a").state()).isEqualTo(SkillState.PENDING_DEPS);
    assertThat(r.diagnostics().get(0).message()).contains("rejected");
  }

  @Test
  void resolve_cycle_rejectsOnlyMembers() {
    Resolution r =
        SkillResolver.resolve(
            List.of(
                skill("a", Scope.REPO, 0, "a", "b"),
                skill("b", Scope.REPO, 0, "b", "c"),
                skill("c", Scope.REPO, 0, "c", "a", "base"),
                skill("base", Scope.REPO, 0, "base"),
                skill("user", Scope.REPO, 0, "user", "a"),
                skill("other", Scope.REPO, 0, "other", "base")));
    assertThat(named(r, "a").state()).isEqualTo(SkillState.SKIPPED);
    assertThat(named(r, "b").state()).isEqualTo(SkillState.SKIPPED);
    assertThat(named(r, "c").state()).isEqualTo(SkillState.SKIPPED);
    assertThat(named(r, "base").state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(named(r, "other").state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(named(r, "user").state()).isEqualTo(SkillState.PENDING_DEPS);
    assertThat(codesFor(r, "a")).containsExactly(DiagnosticCode.DEPENDENCY_CYCLE);
    assertThat(codesFor(r, "user")).containsExactly(DiagnosticCode.DEPENDENCY_MISSING);
    assertThat(r.diagnostics().stream().filter(d -> d.skill().equals("b")).findFirst())
        .hasValueSatisfying(d -> assertThat(d.message()).contains("a, b, c"));
  }

  @Test
  void resolve_selfDependency_isCycle() {
    Resolution r = SkillResolver.resolve(List.of(skill("me", Scope.REPO, 0, "me", "me")));
    assertThat(r.skills().get(0).state()).isEqualTo(SkillState.SKIPPED);
    assertThat(r.diagnostics().get(0).code()).isEqualTo(DiagnosticCode.DEPENDENCY_CYCLE);
    assertThat(r.diagnostics().get(0).message()).contains("itself");
  }

  @Test
  void resolve_dependencyResolvesToWinner_notShadowedCopy() {
    Resolution r =
        SkillResolver.resolve(
            List.of(
                skill("a", Scope.REPO, 0, "r/a", "b"),
                skill("b", Scope.TEAM, 0, "t/b"),
                skill("b", Scope.REPO, 0, "r/b", "ghost")));
    assertThat(named(r, "r/a").state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(named(r, "r/b").state()).isEqualTo(SkillState.SHADOWED);
  }

  @Test
  void resolve_longChain_doesNotOverflowStack() {
    List<Skill> chain = new ArrayList<>();
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      chain.add(
          i + 1 < n
              ? skill("s" + i, Scope.REPO, 0, "s" + i, "s" + (i + 1))
              : skill("s" + i, Scope.REPO, 0, "s" + i, "missing"));
    }
    Resolution r = SkillResolver.resolve(chain);
    assertThat(r.skills()).extracting(Skill::state).containsOnly(SkillState.PENDING_DEPS);
    assertThat(DependencyOrder.of(chain, "s0")).hasSize(n);
  }
}
