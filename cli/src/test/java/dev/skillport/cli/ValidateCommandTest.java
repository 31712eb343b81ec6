package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void validate_hundredThousandDiagnostics_reportsEachOnceUnderItsSkill() throws Exception {
    // Grouping diagnostics by skill used to compare every diagnostic with every other one.
    Path skill = Files.createDirectories(dir.resolve("many"));
    Files.writeString(
        skill.resolve("SKILL.md"),
        "---\nname: many\ndescription: d\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    StringBuilder tools = new StringBuilder("tools:\n");
    for (int i = 0; i < 100_000; i++) {
      tools.append("  - name: t").append(i).append('\n');
    }
    Files.writeString(skill.resolve("tools.yaml"), tools);

    CliRun run = CliRun.execute(dir, "validate", "many");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out().lines().filter(l -> l.contains(" notice TOOL_UNBOUND ")))
        .hasSize(100_000)
        .allMatch(l -> l.startsWith("  many/tools.yaml:"));
    assertThat(run.out().lines().reduce((a, b) -> b))
        .hasValue(
            "1 skill: 1 passed, 0 with warnings, 0 failed; 0 errors, 0 warnings, 100000 notices");
  }

  /** A skill whose second tool names a Java handler that nothing registers. */
  private void handlerless(String name) throws Exception {
    Path skill = Files.createDirectories(dir.resolve(name));
    Files.writeString(
        skill.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: d\nmetadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n");
    Files.writeString(
        skill.resolve("tools.yaml"),
        """
        tools:
          - name: status
            description: A bundled handler
            handler: skillport-diagnostics.server_status
          - name: render
            description: A handler no one ships
            handler: studio.render
        """);
  }

  @Test
  void validateStrict_handlerNobodyRegisters_failsAtTheToolsYamlLine() throws Exception {
    handlerless("ghostly");

    CliRun run = CliRun.execute(dir, "validate", "--strict", "ghostly");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .contains("FAIL ghostly (skipped, repo) ghostly")
        .containsPattern(
            "(?m)^  ghostly/tools\\.yaml:7: error HANDLER_NOT_REGISTERED tool 'render'")
        .doesNotContain("server_status");
  }

  @Test
  void listAndValidate_pluginJarsWaiting_leaveTheHandlerCheckToServe() throws Exception {
    handlerless("ghostly");
    Path plugins = Files.createDirectories(dir.resolve("plugins"));
    Files.writeString(plugins.resolve("studio.jar"), "");
    Map<String, String> env = Map.of("SKILLPORT_PLUGINS", plugins.toString());

    CliRun validate = CliRun.execute(dir, env, "validate", "--strict", "ghostly");
    CliRun list = CliRun.execute(dir, env, "list", "ghostly");
    CliRun listWithoutPlugins = CliRun.execute(dir, "list", "ghostly");

    assertThat(validate.exitCode()).isZero();
    assertThat(validate.out())
        .contains("PASS ghostly (available, repo)")
        .doesNotContain("HANDLER_NOT_REGISTERED");
    assertThat(list.out()).containsPattern("ghostly +repo +available ");
    assertThat(listWithoutPlugins.out()).containsPattern("ghostly +repo +skipped ");
  }

  @Test
  void validate_validSkillFolder_exitZeroAndPassLine() {
    SkillFolders.valid(dir, "good");

    CliRun run = CliRun.execute(dir, "validate", "good");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("PASS good (available, repo) good")
        .contains("1 skill: 1 passed, 0 with warnings, 0 failed; 0 errors, 0 warnings");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void validate_missingDescription_exitOneWithPositionedError() {
    SkillFolders.withoutDescription(dir, "bad");

    CliRun run = CliRun.execute(dir, "validate", "bad");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .contains("FAIL bad (skipped, repo) bad")
        .containsPattern("(?m)^  bad/SKILL\\.md(:\\d+)*: error DESCRIPTION_MISSING ")
        .contains("1 failed");
  }

  @Test
  void validate_unknownTopLevelKey_lenientWarnsAndExitsZero() {
    SkillFolders.withUnknownKey(dir, "stray");

    CliRun run = CliRun.execute(dir, "validate", "stray");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("WARN stray (available, repo)")
        .containsPattern("stray/SKILL\\.md:4:\\d+: warning FRONTMATTER_UNKNOWN_KEY ");
  }

  @Test
  void validate_unknownTopLevelKeyStrict_errorAndExitOne() {
    SkillFolders.withUnknownKey(dir, "stray");

    CliRun run = CliRun.execute(dir, "validate", "--strict", "stray");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .contains("FAIL stray")
        .containsPattern("stray/SKILL\\.md:4:\\d+: error FRONTMATTER_UNKNOWN_KEY ")
        .contains("(strict)");
  }

  @Test
  void validate_tree_reportsEverySkillAndFailsOnAnyError() {
    Path tree = dir.resolve("tree");
    SkillFolders.valid(tree.resolve("team-a"), "alpha");
    SkillFolders.withoutDescription(tree.resolve("team-b"), "beta");

    CliRun run = CliRun.execute(dir, "validate", "tree");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .contains("PASS alpha (available, repo) tree/team-a/alpha")
        .contains("FAIL beta (skipped, repo) tree/team-b/beta")
        .contains("2 skills: 1 passed, 0 with warnings, 1 failed");
  }

  @Test
  void validate_skillMdFile_validatesItsFolder() {
    SkillFolders.valid(dir, "good");

    CliRun run = CliRun.execute(dir, "validate", "good/SKILL.md");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("PASS good (available, repo) good");
  }

  @Test
  void validate_absolutePathOutsideWorkingDirectory_showsAbsolutePaths() {
    Path skill = SkillFolders.valid(dir.resolve("elsewhere"), "good");

    CliRun run = CliRun.execute(dir.resolve("work"), "validate", skill.toString());

    assertThat(run.out()).contains("PASS good (available, repo) " + skill.toAbsolutePath());
  }

  @Test
  void validate_emptyDirectory_exitOneNoSkillsFound() throws Exception {
    Files.createDirectories(dir.resolve("empty"));

    CliRun run = CliRun.execute(dir, "validate", "empty");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("No skills found.");
  }

  @Test
  void validate_nonexistentPath_usageErrorExitTwo() {
    CliRun run = CliRun.execute(dir, "validate", "no-such-skill");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().lines())
        .containsExactly(
            "skillport validate: No such file or directory: no-such-skill",
            "See 'skillport validate --help'.");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void validate_fileThatIsNotSkillMd_usageErrorExitTwo() throws Exception {
    Files.writeString(dir.resolve("notes.txt"), "x");

    CliRun run = CliRun.execute(dir, "validate", "notes.txt");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Not a skill folder or SKILL.md: notes.txt");
  }

  @Test
  void validate_unknownOptionOrFormat_usageErrorExitTwo() {
    SkillFolders.valid(dir, "good");

    assertThat(CliRun.execute(dir, "validate", "--fast", "good").exitCode()).isEqualTo(2);
    assertThat(CliRun.execute(dir, "validate", "--format", "xml", "good").exitCode()).isEqualTo(2);
    assertThat(CliRun.execute(dir, "validate").exitCode()).isEqualTo(2);
  }

  @Test
  void validate_jsonFormat_documentedShapeWithEveryDiagnosticField() throws Exception {
    SkillFolders.valid(dir, "good");
    SkillFolders.withUnknownKey(dir, "stray");

    CliRun run = CliRun.execute(dir, "validate", "--format", "json", "good", "stray");

    assertThat(run.exitCode()).isZero();
    JsonNode root = JSON.readTree(run.out());
    assertThat(root.path("version").asInt()).isEqualTo(1);
    assertThat(root.path("strict").asBoolean()).isFalse();
    assertThat(root.path("passed").asBoolean()).isTrue();
    assertThat(root.path("summary").path("skills").asInt()).isEqualTo(2);
    assertThat(root.path("summary").path("pass").asInt()).isEqualTo(1);
    assertThat(root.path("summary").path("warn").asInt()).isEqualTo(1);
    assertThat(root.path("summary").path("errors").asInt()).isZero();
    assertThat(root.path("diagnostics").isArray()).isTrue();

    JsonNode good = skillNamed(root, "good");
    assertThat(good.path("path").asText()).isEqualTo("good");
    assertThat(good.path("scope").asText()).isEqualTo("repo");
    assertThat(good.path("state").asText()).isEqualTo("available");
    assertThat(good.path("verdict").asText()).isEqualTo("pass");
    assertThat(good.path("tools").asInt()).isZero();
    assertThat(good.path("diagnostics")).isEmpty();

    JsonNode stray = skillNamed(root, "stray");
    assertThat(stray.path("verdict").asText()).isEqualTo("warn");
    JsonNode d = stray.path("diagnostics").get(0);
    assertThat(d.fieldNames())
        .toIterable()
        .containsExactly("severity", "code", "message", "file", "line", "column", "skill", "hint");
    assertThat(d.path("severity").asText()).isEqualTo("warning");
    assertThat(d.path("code").asText()).isEqualTo("FRONTMATTER_UNKNOWN_KEY");
    assertThat(d.path("file").asText()).isEqualTo(Path.of("stray", "SKILL.md").toString());
    assertThat(d.path("line").asInt()).isEqualTo(4);
    assertThat(d.path("skill").asText()).isEqualTo("stray");
    assertThat(d.path("message").asText()).contains("tags");
  }

  @Test
  void validate_jsonStrict_sameSkillFailsWithErrorSeverity() throws Exception {
    SkillFolders.withUnknownKey(dir, "stray");

    CliRun run = CliRun.execute(dir, "validate", "--strict", "--format=JSON", "stray");

    assertThat(run.exitCode()).isEqualTo(1);
    JsonNode root = JSON.readTree(run.out());
    assertThat(root.path("strict").asBoolean()).isTrue();
    assertThat(root.path("passed").asBoolean()).isFalse();
    JsonNode stray = skillNamed(root, "stray");
    assertThat(stray.path("verdict").asText()).isEqualTo("fail");
    assertThat(stray.path("diagnostics").get(0).path("severity").asText()).isEqualTo("error");
  }

  private static JsonNode skillNamed(JsonNode root, String name) {
    for (JsonNode s : root.path("skills")) {
      if (name.equals(s.path("name").asText())) {
        return s;
      }
    }
    throw new AssertionError("no skill " + name + " in " + root);
  }
}
