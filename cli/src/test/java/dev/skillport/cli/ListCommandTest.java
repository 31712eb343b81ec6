package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListCommandTest {
  @TempDir Path dir;

  @Test
  void list_tree_headerThenOneAlignedRowPerSkill() throws Exception {
    Path tree = dir.resolve("skills");
    SkillFolders.valid(tree, "alpha");
    Path scripted = SkillFolders.valid(tree, "scripted-skill");
    Files.createDirectories(scripted.resolve("scripts"));
    Files.writeString(scripted.resolve("scripts/one.py"), "print('{}')\n");
    Files.writeString(scripted.resolve("scripts/two.sh"), "echo '{}'\n");
    SkillFolders.withoutDescription(tree, "broken");

    CliRun run = CliRun.execute(dir, "list", "skills");

    assertThat(run.exitCode()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0).split("\\s+"))
        .containsExactly("NAME", "SCOPE", "STATE", "TOOLS", "PATH");
    assertThat(lines.subList(1, 4))
        .anySatisfy(
            l ->
                assertThat(l.split("\\s+"))
                    .containsExactly("alpha", "repo", "available", "0", "skills/alpha"))
        .anySatisfy(
            l ->
                assertThat(l.split("\\s+"))
                    .containsExactly(
                        "scripted-skill", "repo", "available", "2", "skills/scripted-skill"))
        .anySatisfy(
            l ->
                assertThat(l.split("\\s+"))
                    .containsExactly("broken", "repo", "skipped", "0", "skills/broken"));
    int pathColumn = lines.get(0).indexOf("PATH");
    assertThat(lines)
        .allSatisfy(
            l -> assertThat(l.indexOf("skills/") == pathColumn || l.startsWith("NAME")).isTrue());
  }

  @Test
  void list_strict_listsASkillWithAWarningAsSkipped() {
    Path tree = dir.resolve("skills");
    SkillFolders.valid(tree, "clean");
    SkillFolders.withUnknownKey(tree, "warned");

    CliRun lenient = CliRun.execute(dir, "list", "skills");
    CliRun strict = CliRun.execute(dir, "list", "--strict", "skills");

    assertThat(lenient.exitCode()).isZero();
    assertThat(strict.exitCode()).isZero();
    assertThat(lenient.out().lines().skip(1).map(l -> List.of(l.split("\\s+"))))
        .containsExactly(
            List.of("clean", "repo", "available", "0", "skills/clean"),
            List.of("warned", "repo", "available", "0", "skills/warned"));
    assertThat(strict.out().lines().skip(1).map(l -> List.of(l.split("\\s+"))))
        .containsExactly(
            List.of("clean", "repo", "available", "0", "skills/clean"),
            List.of("warned", "repo", "skipped", "0", "skills/warned"));
  }

  @Test
  void list_noPath_rootsFromEnvironmentWithScopesAndShadowing() {
    Path repo = dir.resolve("repo-skills");
    Path team = dir.resolve("team-skills");
    SkillFolders.valid(repo, "shared");
    SkillFolders.valid(repo, "only-repo");
    SkillFolders.valid(team, "shared");

    CliRun run =
        CliRun.execute(
            dir,
            Map.of(
                "SKILLPORT_SKILL_PATHS",
                repo.toString(),
                "SKILLPORT_TEAM_SKILL_PATHS",
                team.toString()),
            "list");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out().lines().skip(1).map(l -> List.of(l.split("\\s+"))))
        .containsExactly(
            List.of("only-repo", "repo", "available", "0", "repo-skills/only-repo"),
            List.of("shared", "team", "available", "0", "team-skills/shared"),
            List.of("shared", "repo", "shadowed", "0", "repo-skills/shared"));
  }

  @Test
  void list_noPathAndNoConfiguredRoots_usageErrorExitTwo() {
    CliRun run = CliRun.execute(dir, "list");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("SKILLPORT_SKILL_PATHS");
  }

  @Test
  void list_missingPath_usageErrorExitTwo() {
    CliRun run = CliRun.execute(dir, "list", "nowhere");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("No such file or directory: nowhere");
  }

  @Test
  void list_formatJson_oneDocumentWithEveryKeyPerSkill() throws Exception {
    Path tree = dir.resolve("skills");
    SkillFolders.valid(tree, "alpha");
    SkillFolders.withoutDescription(tree, "broken");

    CliRun run = CliRun.execute(dir, "list", "--format", "json", "skills");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode root = new ObjectMapper().readTree(run.out());
    assertThat(root.path("version").asInt()).isEqualTo(1);
    assertThat(root.path("skills")).hasSize(2);
    JsonNode alpha = null;
    for (JsonNode skill : root.path("skills")) {
      assertThat(skill.fieldNames())
          .toIterable()
          .containsExactly("name", "description", "scope", "state", "tools", "path");
      if (skill.path("name").asText().equals("alpha")) {
        alpha = skill;
      }
    }
    assertThat(alpha).isNotNull();
    assertThat(alpha.path("state").asText()).isEqualTo("available");
    assertThat(alpha.path("scope").asText()).isEqualTo("repo");
    assertThat(alpha.path("tools").asInt()).isZero();
    assertThat(alpha.path("path").asText()).isEqualTo("skills/alpha");
    assertThat(alpha.path("description").asText()).isNotBlank();
  }

  @Test
  void list_formatTable_isTheDefault() {
    Path tree = dir.resolve("skills");
    SkillFolders.valid(tree, "alpha");

    assertThat(CliRun.execute(dir, "list", "--format", "table", "skills").out())
        .isEqualTo(CliRun.execute(dir, "list", "skills").out())
        .startsWith("NAME");
  }

  @Test
  void list_unknownFormat_usageError() {
    CliRun run = CliRun.execute(dir, "list", "--format", "yaml", ".");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--format").contains("yaml");
  }
}
