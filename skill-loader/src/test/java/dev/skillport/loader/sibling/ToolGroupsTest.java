package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolGroupsTest {
  @TempDir Path tmp;

  @Test
  void read_membership_isUnionOfToolFieldAndGroupList() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file(
                "tools.yaml",
                """
                tools:
                  - {name: a, group: edit}
                  - {name: b}
                  - {name: c}
                groups:
                  - {name: edit, description: Editing, tools: [b], default-active: true}
                  - {name: view, tools: [c], default_active: false}
                """);
    skill.tools = "tools.yaml";

    SkillContents contents = skill.read();

    assertThat(contents.groups())
        .containsExactly(
            new GroupSpec("edit", "Editing", java.util.List.of("a", "b"), true),
            new GroupSpec("view", "", java.util.List.of("c"), false));
    assertThat(contents.tools())
        .extracting(ToolSpec::group)
        .containsExactly("edit", "edit", "view");
    assertThat(skill.codes()).containsOnly(DiagnosticCode.TOOL_UNBOUND);
  }

  @Test
  void read_groupsFile_overridesToolsFileGroups() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("tools.yaml", "tools: [a, b]\ngroups:\n  - {name: old, tools: [a]}\n")
            .file("groups.yaml", "- {name: new, tools: [b]}\n");
    skill.tools = "tools.yaml";
    skill.groups = "groups.yaml";

    SkillContents contents = skill.read();

    assertThat(contents.groups()).extracting(GroupSpec::name).containsExactly("new");
    assertThat(contents.tools()).extracting(ToolSpec::group).containsExactly(null, "new");
  }

  @Test
  void read_toolNamingUndeclaredGroup_getsInactiveImplicitGroup() {
    SkillFolder skill =
        SkillFolder.in(tmp).file("tools.yaml", "tools:\n  - name: a\n    group: extras\n");
    skill.tools = "tools.yaml";

    SkillContents contents = skill.read();

    assertThat(contents.groups())
        .containsExactly(new GroupSpec("extras", "", java.util.List.of("a"), false));
    assertThat(contents.tools().get(0).group()).isEqualTo("extras");
    assertThat(skill.with(DiagnosticCode.TOOL_GROUP_UNKNOWN).get(0).line()).isEqualTo(2);
  }

  @Test
  void read_groupProblems_reportedAndInvalidGroupDroppedAlone() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file(
                "tools.yaml",
                """
                tools: [a, b]
                groups:
                  - {name: g, tools: [a, ghost]}
                  - {name: g, tools: [b]}
                  - {description: no name}
                  - {name: h, tools: [a]}
                """);
    skill.tools = "tools.yaml";

    SkillContents contents = skill.read();

    assertThat(contents.groups()).extracting(GroupSpec::name).containsExactly("g", "h");
    assertThat(contents.groups().get(1).tools()).isEmpty();
    assertThat(skill.codes())
        .containsExactly(
            DiagnosticCode.GROUP_DUPLICATE,
            DiagnosticCode.GROUP_INVALID,
            DiagnosticCode.TOOL_UNBOUND,
            DiagnosticCode.TOOL_UNBOUND,
            DiagnosticCode.GROUP_UNKNOWN_TOOL,
            DiagnosticCode.GROUP_TOOL_CONFLICT);
    assertThat(skill.with(DiagnosticCode.GROUP_UNKNOWN_TOOL).get(0).line()).isEqualTo(3);
  }
}
