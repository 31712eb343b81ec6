package dev.skillport.sdk.scaffold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.testkit.SkillTestKit;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillScaffoldTest {
  @TempDir Path dir;

  @Test
  void create_validName_loadsStrictlyWithoutDiagnostics() throws IOException {
    Path skill = SkillScaffold.create(dir, "my-skill");

    SkillTestKit kit = SkillTestKit.load(skill, LoaderOptions.DEFAULTS.withStrict(true));

    assertThat(kit.diagnostics()).isEmpty();
    assertThat(kit.skill()).hasValueSatisfying(s -> assertThat(s.name()).isEqualTo("my-skill"));
    assertThat(kit.tools()).hasSize(1);
    for (String file : SkillScaffold.FILES) {
      assertThat(skill.resolve(file)).isRegularFile();
    }
  }

  @Test
  void create_scriptTool_answersWithJson() throws IOException {
    Path skill = SkillScaffold.create(dir, "greeter");

    ToolResult result =
        SkillTestKit.load(skill).call(SkillScaffold.TOOL_NAME, Map.of("name", "Ada"));

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().path("message").asText()).isEqualTo("Hello, Ada!");
  }

  @Test
  void create_invalidName_refusedAndNothingWritten() throws IOException {
    assertThatThrownBy(() -> SkillScaffold.create(dir, "Bad_Name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Bad_Name");
    try (var entries = Files.list(dir)) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void create_existingFolder_refusedAndLeftAlone() throws IOException {
    Files.createDirectory(dir.resolve("taken"));
    Files.writeString(dir.resolve("taken/keep.txt"), "mine");

    assertThatThrownBy(() -> SkillScaffold.create(dir, "taken"))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(dir.resolve("taken/keep.txt")).hasContent("mine");
    assertThat(dir.resolve("taken/SKILL.md")).doesNotExist();
  }

  @Test
  void isValidName_followsLoaderRule() {
    assertThat(SkillScaffold.isValidName("a-b1")).isTrue();
    assertThat(SkillScaffold.isValidName("-ab")).isFalse();
    assertThat(SkillScaffold.isValidName("a--b")).isFalse();
    assertThat(SkillScaffold.isValidName("x".repeat(65))).isFalse();
    assertThat(SkillScaffold.isValidName("")).isFalse();
  }
}
