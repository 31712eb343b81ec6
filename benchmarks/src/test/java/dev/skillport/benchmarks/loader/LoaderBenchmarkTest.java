package dev.skillport.benchmarks.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.loader.LoadResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillLocation;
import dev.skillport.model.skill.SkillManifest;
import dev.skillport.model.skill.SkillState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoaderBenchmarkTest {

  @Test
  void threads_all_isEveryAvailableProcessor() {
    assertThat(LoaderBenchmark.threads("all"))
        .isEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void threads_number_isThatNumber() {
    assertThat(LoaderBenchmark.threads("3")).isEqualTo(3);
  }

  @Test
  void requireClean_expectedSkillsAndNoDiagnostic_passes() {
    LoadResult result = new LoadResult(List.of(skill("a"), skill("b")), List.of());

    assertThatCode(() -> LoaderBenchmark.requireClean(result, 2)).doesNotThrowAnyException();
  }

  @Test
  void requireClean_fewerSkillsThanGenerated_fails() {
    LoadResult result = new LoadResult(List.of(skill("a")), List.of());

    assertThatThrownBy(() -> LoaderBenchmark.requireClean(result, 2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("1 of 2 skills");
  }

  @Test
  void requireClean_anyDiagnostic_failsAndNamesIt() {
    Diagnostic notice =
        Diagnostic.of(DiagnosticCode.TOOL_UNBOUND, "tool x is unbound", Path.of("SKILL.md"), 3, 1);
    LoadResult result = new LoadResult(List.of(skill("a")), List.of(notice));

    assertThatThrownBy(() -> LoaderBenchmark.requireClean(result, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TOOL_UNBOUND");
  }

  private static Skill skill(String name) {
    Path dir = Path.of("skills", name);
    return new Skill(
        new SkillManifest(name, "d", null, null, null, null, null, null, null),
        new SkillLocation(dir, dir.resolve("SKILL.md"), Path.of("skills"), Scope.REPO, 0),
        SkillState.AVAILABLE,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }
}
