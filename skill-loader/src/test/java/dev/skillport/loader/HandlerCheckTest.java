package dev.skillport.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HandlerCheckTest {
  @TempDir Path root;

  private LoadResult loaded;

  @BeforeEach
  void writeSkills() throws IOException {
    writeSkill("java-tools", "handler: demo.known", "handler: demo.ghost");
    writeSkill("other", "handler: demo.known", "handler: demo.known");
    loaded = new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
  }

  private void writeSkill(String name, String first, String second) throws IOException {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: Java tools\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        dir.resolve("tools.yaml"),
        "tools:\n"
            + "  - name: one\n"
            + "    description: First\n"
            + "    "
            + first
            + "\n"
            + "  - name: two\n"
            + "    description: Second\n"
            + "    "
            + second
            + "\n");
  }

  private static Diagnostic only(LoadResult result) {
    List<Diagnostic> found =
        result.diagnostics().stream()
            .filter(d -> d.code() == DiagnosticCode.HANDLER_NOT_REGISTERED)
            .toList();
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  @Test
  void apply_handlerNobodyRegistersAsError_skillSkippedAtItsToolsYamlLine() {
    LoadResult checked =
        new HandlerCheck(Set.of("demo.known")::contains, Severity.ERROR).apply(loaded);

    assertThat(checked.skill("java-tools").orElseThrow().state()).isEqualTo(SkillState.SKIPPED);
    assertThat(checked.skill("other").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    Diagnostic d = only(checked);
    assertThat(d.isError()).isTrue();
    assertThat(d.skill()).isEqualTo("java-tools");
    assertThat(d.file()).isEqualTo(root.resolve("java-tools/tools.yaml"));
    assertThat(d.line()).isEqualTo(7);
    assertThat(d.message()).contains("'two'", "demo.ghost");
  }

  @Test
  void apply_handlerNobodyRegistersAsWarning_skillStaysAvailable() {
    LoadResult checked =
        new HandlerCheck(Set.of("demo.known")::contains, Severity.WARNING).apply(loaded);

    assertThat(checked.skill("java-tools").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(only(checked).severity()).isEqualTo(Severity.WARNING);
  }

  @Test
  void apply_everyHandlerRegistered_resultUnchanged() {
    LoadResult checked =
        new HandlerCheck(Set.of("demo.known", "demo.ghost")::contains, Severity.ERROR)
            .apply(loaded);

    assertThat(checked).isSameAs(loaded);
  }
}
