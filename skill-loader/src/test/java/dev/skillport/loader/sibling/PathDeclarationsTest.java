package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.PathArgument;
import dev.skillport.model.skill.PathPlace;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathDeclarationsTest {
  @TempDir Path tmp;

  private SkillFolder skill(String toolsYaml) {
    SkillFolder skill = SkillFolder.in(tmp).file("tools.yaml", toolsYaml);
    skill.tools = "tools.yaml";
    return skill;
  }

  @Test
  void read_longAndShortForms_giveEachArgumentItsPlacesInOrder() {
    SkillFolder skill =
        skill(
            """
            tools:
              - name: convert
                input_schema:
                  type: object
                  properties: {src: {type: string}, dst: {type: string}, extra: {type: array}}
                paths:
                  src: {inside: [skill, roots]}
                  dst: [workdir, allowed:assets]
                  extra: allowed
              - name: plain
            """);

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools.get(0).paths())
        .containsExactly(
            new PathArgument("src", List.of(PathPlace.SKILL, PathPlace.ROOTS)),
            new PathArgument(
                "dst", List.of(PathPlace.WORKDIR, new PathPlace(PathPlace.Kind.ALLOWED, "assets"))),
            new PathArgument("extra", List.of(PathPlace.ALLOWED)));
    assertThat(tools.get(1).paths()).isEmpty();
    assertThat(skill.with(DiagnosticCode.TOOL_PATHS_INVALID)).isEmpty();
    assertThat(skill.with(DiagnosticCode.TOOL_KEY_UNKNOWN)).isEmpty();
  }

  @Test
  void read_invalidDeclarations_dropOnlyTheirToolWithTheLineOfTheProblem() {
    SkillFolder skill =
        skill(
            """
            tools:
              - {name: ok, paths: {file: [skill]}}
              - {name: unknown_place, paths: {file: [skill, home]}}
              - {name: empty_list, paths: {file: []}}
              - {name: not_mapping, paths: [skill]}
              - {name: extra_key, paths: {file: {inside: [skill], mode: rw}}}
              - name: undeclared_argument
                input_schema: {type: object, properties: {path: {type: string}}}
                paths:
                  pth: [skill]
              - {name: bad_name, paths: {file: ["allowed:Has Space"]}}
              - {name: number, paths: {file: [skill, 3]}}
            """);

    List<ToolSpec> tools = skill.read().tools();

    assertThat(tools).extracting(ToolSpec::name).containsExactly("ok");
    List<Diagnostic> invalid = skill.with(DiagnosticCode.TOOL_PATHS_INVALID);
    assertThat(invalid).hasSize(7);
    assertThat(invalid).allSatisfy(d -> assertThat(d.severity()).isEqualTo(Severity.WARNING));
    assertThat(invalid)
        .extracting(Diagnostic::line)
        .containsExactlyInAnyOrder(3, 4, 5, 6, 10, 11, 12);
    assertThat(invalid.get(0).message()).contains("unknown_place").contains("dropped");
  }
}
