package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolBinding.ScriptSource;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolBinderTest {
  @TempDir Path tmp;

  private static ToolBinding.Script script(ToolSpec tool) {
    assertThat(tool.binding()).isInstanceOf(ToolBinding.Script.class);
    return (ToolBinding.Script) tool.binding();
  }

  @Test
  void read_bindingOrder_handlerThenSourceFileThenStem() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("scripts/export-scene.py", "")
            .file("scripts/other.sh", "")
            .file("lib/run.py", "")
            .file(
                "tools.yaml",
                """
                tools:
                  - {name: export_scene, handler: demo.export, source_file: lib/run.py}
                  - {name: Export-Scene, source_file: lib/run.py}
                  - {name: export_scene2}
                  - {name: other}
                """);
    skill.tools = "tools.yaml";

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools.get(0).binding()).isEqualTo(new ToolBinding.Handler("demo.export"));
    assertThat(script(tools.get(1)).source()).isEqualTo(ScriptSource.SOURCE_FILE);
    assertThat(script(tools.get(1)).script()).isEqualTo(skill.dir.resolve("lib/run.py"));
    assertThat(tools.get(2).binding()).isInstanceOf(ToolBinding.Unbound.class);
    assertThat(script(tools.get(3)).source()).isEqualTo(ScriptSource.STEM);
    assertThat(script(tools.get(3)).script().getFileName().toString()).isEqualTo("other.sh");
    assertThat(skill.with(DiagnosticCode.TOOL_UNBOUND))
        .singleElement()
        .satisfies(d -> assertThat(d.severity()).isEqualTo(Severity.NOTICE));
  }

  @Test
  void read_stemMatch_normalisesCaseAndDashes() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("scripts/Export-Scene.py", "")
            .file("scripts/b.py", "")
            .file("tools.yaml", "tools: [export_scene]\n");
    skill.tools = "tools.yaml";

    ToolSpec tool = skill.read().tools().get(0);

    assertThat(script(tool).source()).isEqualTo(ScriptSource.STEM);
    assertThat(script(tool).script().getFileName().toString()).isEqualTo("Export-Scene.py");
  }

  @Test
  void read_onlyScript_bindsEveryUnmatchedTool() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("scripts/main.py", "")
            .file("scripts/README.md", "")
            .file("scripts/.hidden.py", "")
            .file("scripts/nested/deep.py", "")
            .file("tools.yaml", "tools: [a, b]\n");
    skill.tools = "tools.yaml";

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools)
        .allSatisfy(t -> assertThat(script(t).source()).isEqualTo(ScriptSource.SINGLE_SCRIPT));
  }

  @Test
  void read_missingSourceFile_warnsAndLeavesToolUnbound() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("scripts/a.py", "")
            .file("tools.yaml", "tools:\n  - name: a\n    source_file: scripts/gone.py\n");
    skill.tools = "tools.yaml";

    ToolSpec tool = skill.read().tools().get(0);

    assertThat(tool.binding()).isInstanceOf(ToolBinding.Unbound.class);
    assertThat(skill.with(DiagnosticCode.TOOL_SOURCE_MISSING))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.severity()).isEqualTo(Severity.WARNING);
              assertThat(d.line()).isEqualTo(3);
            });
  }

  @Test
  void read_escapingSourceFile_isEscapesError() throws Exception {
    Path outside = Files.writeString(tmp.resolve("evil.py"), "");
    SkillFolder skill =
        SkillFolder.in(tmp)
            .link("scripts/a.py", outside)
            .file(
                "tools.yaml",
                "tools:\n  - {name: a, source_file: ../evil.py}\n  - {name: b, source_file: scripts/a.py}\n");
    skill.tools = "tools.yaml";

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools)
        .allSatisfy(t -> assertThat(t.binding()).isInstanceOf(ToolBinding.Unbound.class));
    assertThat(skill.with(DiagnosticCode.SIBLING_ESCAPES)).hasSizeGreaterThanOrEqualTo(2);
    assertThat(skill.diagnostics.hasErrors()).isTrue();
  }

  @Test
  void read_noToolsFile_turnsEachScriptIntoATool() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("scripts/make-thumbnail.py", "")
            .file("scripts/clean.sh", "")
            .file("scripts/notes.txt", "")
            .file("scripts/clean.js", "");

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools).extracting(ToolSpec::name).containsExactly("clean", "make_thumbnail");
    assertThat(tools)
        .allSatisfy(t -> assertThat(script(t).source()).isEqualTo(ScriptSource.SCRIPT_ONLY));
    assertThat(script(tools.get(0)).script().getFileName().toString()).isEqualTo("clean.js");
    assertThat(tools.get(1).description()).isEqualTo("[demo-skill] Demo skill.");
    assertThat(skill.with(DiagnosticCode.TOOL_DUPLICATE_NAME)).hasSize(1);
  }

  @Test
  void read_scriptLinks_insideBindAndOutsideAreRefused() throws Exception {
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("steal.py"), "");
    SkillFolder skill = SkillFolder.in(tmp).file("lib/build.py", "").file("scripts/keep.py", "");
    skill.link("scripts/build.py", Path.of("../lib/build.py"));
    skill.link("scripts/steal.py", outside.resolve("steal.py"));
    skill.link("scripts/gone.py", Path.of("../lib/missing.py"));
    skill.file("tools.yaml", "tools:\n  - {name: build}\n  - {name: steal}\n  - {name: keep}\n");
    skill.tools = "tools.yaml";

    List<ToolSpec> tools = skill.read().tools();

    assertThat(script(tools.get(0)).script()).isEqualTo(skill.dir.resolve("scripts/build.py"));
    assertThat(tools.get(1).binding()).isInstanceOf(ToolBinding.Unbound.class);
    assertThat(script(tools.get(2)).script()).isEqualTo(skill.dir.resolve("scripts/keep.py"));
    assertThat(skill.with(DiagnosticCode.SIBLING_ESCAPES))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("scripts/steal.py"));
  }

  @Test
  void read_scriptsFolderLink_insideIsUsedAndOutsideIsRefused() throws Exception {
    SkillFolder inside = SkillFolder.in(tmp.resolve("a")).file("tools/scripts/run.py", "");
    inside.link("scripts", Path.of("tools/scripts"));
    inside.file("tools.yaml", "tools:\n  - {name: run}\n");
    inside.tools = "tools.yaml";
    assertThat(script(inside.read().tools().get(0)).script())
        .isEqualTo(inside.dir.resolve("scripts/run.py"));
    assertThat(inside.all()).isEmpty();

    Path outside = Files.createDirectories(tmp.resolve("outside-scripts"));
    Files.writeString(outside.resolve("run.py"), "");
    SkillFolder escaping = SkillFolder.in(tmp.resolve("b"));
    escaping.link("scripts", outside);
    escaping.file("tools.yaml", "tools:\n  - {name: run}\n");
    escaping.tools = "tools.yaml";
    assertThat(escaping.read().tools().get(0).binding()).isInstanceOf(ToolBinding.Unbound.class);
    assertThat(escaping.with(DiagnosticCode.SIBLING_ESCAPES)).hasSize(1);
  }
}
