package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.SkillAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillAccessVerdictsTest {
  @TempDir Path root;

  private LoadResult loaded;

  private void skill(String name) throws Exception {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: Test.\nmetadata: {dcc-mcp: {tools: tools.yaml}}\n---\n");
    Files.writeString(
        dir.resolve("tools.yaml"),
        """
        tools:
          - {name: run}
          - {name: hidden, group: extra}
        groups:
          - {name: extra, tools: [hidden]}
        """);
  }

  @BeforeEach
  void load() throws Exception {
    skill("alpha");
    skill("beta");
    skill("gamma");
    loaded = new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
  }

  private static Skill named(LoadResult result, String name) {
    return result.skill(name).orElseThrow();
  }

  @Test
  void apply_deniedAndUnlistedSkills_becomeDeniedWithTheirReason() {
    SkillAccess access = SkillAccess.ofSkills(List.of("alpha", "beta"), List.of("beta"));

    LoadResult result = new SkillAccessVerdicts(access).apply(loaded);

    assertThat(named(result, "alpha").state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(named(result, "beta").state()).isEqualTo(SkillState.DENIED);
    assertThat(named(result, "gamma").state()).isEqualTo(SkillState.DENIED);
    List<Diagnostic> denied =
        result.diagnostics().stream().filter(d -> d.code() == DiagnosticCode.SKILL_DENIED).toList();
    assertThat(denied).extracting(Diagnostic::skill).containsExactlyInAnyOrder("beta", "gamma");
    assertThat(result.diagnosticsFor("beta").toString()).contains("--deny-skill");
    assertThat(result.diagnosticsFor("gamma").toString()).contains("--allow-skill");
    assertThat(denied.get(0).file().getFileName().toString()).isEqualTo("SKILL.md");
  }

  @Test
  void apply_deniedTool_isRemovedFromItsSkillAndGroups() {
    SkillAccess access = SkillAccess.OPEN.withTools(List.of(), List.of("alpha/hidden"));

    LoadResult result = new SkillAccessVerdicts(access).apply(loaded);

    Skill alpha = named(result, "alpha");
    assertThat(alpha.state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(alpha.tools()).extracting(ToolSpec::name).containsExactly("run");
    assertThat(alpha.groups()).extracting(GroupSpec::tools).containsExactly(List.of());
    assertThat(named(result, "beta").tools()).extracting(ToolSpec::name).contains("hidden");
    assertThat(result.diagnosticsFor("alpha"))
        .filteredOn(d -> d.code() == DiagnosticCode.TOOL_DENIED)
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("alpha/hidden").contains("--deny-tool"));
  }

  @Test
  void apply_twice_isApplyingOnce() {
    SkillAccessVerdicts verdicts =
        new SkillAccessVerdicts(
            SkillAccess.ofSkills(List.of(), List.of("gamma"))
                .withTools(List.of("alpha/run", "beta/run", "gamma/run"), List.of()));

    LoadResult once = verdicts.apply(loaded);
    LoadResult twice = verdicts.apply(once);

    assertThat(twice).isEqualTo(once);
    assertThat(named(once, "gamma").state()).isEqualTo(SkillState.DENIED);
    assertThat(named(once, "beta").tools()).extracting(ToolSpec::name).containsExactly("run");
  }

  @Test
  void apply_openAccess_returnsTheSameResult() {
    assertThat(new SkillAccessVerdicts(SkillAccess.OPEN).apply(loaded)).isSameAs(loaded);
  }
}
