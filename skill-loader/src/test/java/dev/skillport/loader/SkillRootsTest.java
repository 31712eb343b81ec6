package dev.skillport.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillRootsTest {
  @TempDir Path home;

  private static String paths(String... parts) {
    return String.join(File.pathSeparator, parts);
  }

  @Test
  void resolve_allSources_comeInPriorityOrderWithScopes() throws IOException {
    Files.createDirectories(home.resolve(".skillport/skills"));
    SkillRoot bundled = new SkillRoot(Path.of("/bundled"), Scope.SYSTEM, "bundled");
    List<SkillRoot> roots =
        SkillRoots.resolve(
            List.of("/cli-repo", "team=/cli-team", "admin=/cli-admin"),
            Map.of(
                "SKILLPORT_SKILL_PATHS", paths("/env1", "/env2"),
                "DCC_MCP_MAYA_SKILL_PATHS", "/maya",
                "DCC_MCP_SKILL_PATHS", "/dcc",
                "SKILLPORT_TEAM_SKILL_PATHS", "/team",
                "DCC_MCP_BLENDER_SKILL_PATHS", "/blender"),
            home,
            "maya",
            List.of(bundled));
    assertThat(roots)
        .extracting(r -> r.path().toString(), SkillRoot::scope)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Path.of("/cli-repo").toString(), Scope.REPO),
            org.assertj.core.groups.Tuple.tuple(Path.of("/cli-team").toString(), Scope.TEAM),
            org.assertj.core.groups.Tuple.tuple(Path.of("/cli-admin").toString(), Scope.ADMIN),
            org.assertj.core.groups.Tuple.tuple(Path.of("/env1").toString(), Scope.REPO),
            org.assertj.core.groups.Tuple.tuple(Path.of("/env2").toString(), Scope.REPO),
            org.assertj.core.groups.Tuple.tuple(Path.of("/maya").toString(), Scope.REPO),
            org.assertj.core.groups.Tuple.tuple(Path.of("/dcc").toString(), Scope.REPO),
            org.assertj.core.groups.Tuple.tuple(Path.of("/team").toString(), Scope.TEAM),
            org.assertj.core.groups.Tuple.tuple(
                home.resolve(".skillport/skills").toString(), Scope.USER),
            org.assertj.core.groups.Tuple.tuple(Path.of("/bundled").toString(), Scope.SYSTEM));
    assertThat(roots.get(5).origin()).isEqualTo("DCC_MCP_MAYA_SKILL_PATHS");
    assertThat(roots.get(0).origin()).isEqualTo("--skills");
  }

  @Test
  void resolve_missingUserDirectory_isLeftOut() {
    List<SkillRoot> roots = SkillRoots.resolve(List.of(), Map.of(), home, null, List.of());
    assertThat(roots).isEmpty();
  }

  @Test
  void resolve_emptyListEntries_areIgnored() {
    List<SkillRoot> roots =
        SkillRoots.resolve(
            List.of(" ", ""),
            Map.of("SKILLPORT_SKILL_PATHS", paths("", "/a", " ", "")),
            null,
            "",
            List.of());
    assertThat(roots).extracting(SkillRoot::path).containsExactly(Path.of("/a"));
  }

  @Test
  void appVariable_upperCasesAndReplacesDashes() {
    assertThat(SkillRoots.appVariable("3ds-max")).isEqualTo("DCC_MCP_3DS_MAX_SKILL_PATHS");
    assertThat(SkillRoots.appVariable(" ")).isNull();
  }

  @Test
  void parseSpec_unknownScopePrefix_isPartOfPath() {
    SkillRoot root = SkillRoots.parseSpec("weird=/x", null).orElseThrow();
    assertThat(root.scope()).isEqualTo(Scope.REPO);
    assertThat(root.path()).isEqualTo(Path.of("weird=/x"));
  }

  @Test
  void parseSpec_scopeIsCaseInsensitive() {
    SkillRoot root = SkillRoots.parseSpec("User=/x", null).orElseThrow();
    assertThat(root.scope()).isEqualTo(Scope.USER);
    assertThat(root.path()).isEqualTo(Path.of("/x"));
  }

  @Test
  void parseSpec_tilde_isUserHome() {
    SkillRoot root = SkillRoots.parseSpec("team=~/skills", home).orElseThrow();
    assertThat(root.path()).isEqualTo(home.resolve("skills"));
    assertThat(root.scope()).isEqualTo(Scope.TEAM);
  }
}
