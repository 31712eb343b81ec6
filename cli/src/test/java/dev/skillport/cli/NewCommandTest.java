package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NewCommandTest {
  @TempDir Path dir;

  @Test
  void newSkill_validName_createsFolderThatValidatesStrictlyWithoutDiagnostics() {
    CliRun created = CliRun.execute(dir, "new", "skill", "my-tool");

    assertThat(created.exitCode()).isZero();
    assertThat(created.out()).contains("Created skill my-tool in my-tool").contains("tools.yaml");
    assertThat(dir.resolve("my-tool/SKILL.md")).isRegularFile();

    CliRun validated = CliRun.execute(dir, "validate", "--strict", "my-tool");
    assertThat(validated.exitCode()).isZero();
    assertThat(validated.out())
        .contains("PASS my-tool")
        .contains("1 skill: 1 passed, 0 with warnings, 0 failed; 0 errors, 0 warnings")
        .doesNotContainPattern("(?m)^  \\S+: (error|warning|notice|info) ");
  }

  @Test
  void newSkill_dirOption_createsUnderThatFolder() {
    CliRun run = CliRun.execute(dir, "new", "skill", "nested", "--dir", "skills/extra");

    assertThat(run.exitCode()).isZero();
    assertThat(dir.resolve("skills/extra/nested/tools.yaml")).isRegularFile();
    assertThat(dir.resolve("nested")).doesNotExist();
  }

  @Test
  void newSkill_invalidName_exitTwoAndNothingWritten() throws IOException {
    CliRun run = CliRun.execute(dir, "new", "skill", "Not_Valid");

    assertThat(run.exitCode()).isEqualTo(SkillportCommand.EXIT_USAGE);
    assertThat(run.err()).contains("invalid skill name 'Not_Valid'");
    try (var entries = Files.list(dir)) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void newSkill_existingFolder_exitTwoAndFolderUntouched() throws IOException {
    Files.createDirectory(dir.resolve("taken"));

    CliRun run = CliRun.execute(dir, "new", "skill", "taken");

    assertThat(run.exitCode()).isEqualTo(SkillportCommand.EXIT_USAGE);
    assertThat(run.err()).contains("exists already");
    try (var entries = Files.list(dir.resolve("taken"))) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void new_withoutSubcommand_usageError() {
    CliRun run = CliRun.execute(dir, "new");

    assertThat(run.exitCode()).isEqualTo(SkillportCommand.EXIT_USAGE);
    assertThat(run.err()).contains("Missing subcommand").contains("skill");
  }
}
