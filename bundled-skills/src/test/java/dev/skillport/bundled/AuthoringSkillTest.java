package dev.skillport.bundled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.skill.ToolSpec;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.sdk.testing.SkillTestKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthoringSkillTest {
  private static BundledSkills bundled;
  private static SkillTestKit kit;

  @TempDir Path dir;

  @BeforeAll
  static void loadSkill() throws IOException {
    bundled = BundledSkills.unpack();
    kit =
        SkillTestKit.load(
            bundled.root().resolve("skill-authoring"),
            LoaderOptions.DEFAULTS.withStrict(true),
            new AuthoringHandlers());
  }

  @AfterAll
  static void deleteCopy() {
    bundled.close();
  }

  @Test
  void skill_loadsStrictlyWithoutDiagnostics() {
    assertThat(kit.diagnostics()).isEmpty();
    assertThat(kit.tools())
        .extracting(ToolSpec::name)
        .containsExactly("validate_skill", "new_skill", "explain_diagnostic");
  }

  @Test
  void newSkill_thenValidate_passesWithNoDiagnostics() {
    ToolResult created = kit.call("new_skill", Map.of("name", "fresh", "dir", dir.toString()));
    assertThat(created.isError()).as(created.toString()).isFalse();
    assertThat(dir.resolve("fresh/SKILL.md")).isRegularFile();

    ToolResult validated =
        kit.call("validate_skill", Map.of("path", dir.resolve("fresh").toString(), "strict", true));

    JsonNode out = validated.structured();
    assertThat(validated.isError()).isFalse();
    assertThat(out.path("success").asBoolean()).isTrue();
    assertThat(out.path("skill").asText()).isEqualTo("fresh");
    assertThat(out.path("diagnostics")).isEmpty();
  }

  @Test
  void newSkill_existingFolder_errorResult() throws IOException {
    Files.createDirectory(dir.resolve("taken"));

    ToolResult result = kit.call("new_skill", Map.of("name", "taken", "dir", dir.toString()));

    assertThat(result.isError()).isTrue();
    assertThat(result.content().toString()).contains("exists already");
  }

  @Test
  void newSkill_invalidName_errorResultAndNothingWritten() throws IOException {
    ToolResult result = kit.call("new_skill", Map.of("name", "Bad Name", "dir", dir.toString()));

    assertThat(result.isError()).isTrue();
    try (var entries = Files.list(dir)) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void validate_brokenSkill_listsDiagnosticWithCodeAndLine() throws IOException {
    Path bad = Files.createDirectories(dir.resolve("bad"));
    Files.writeString(bad.resolve("SKILL.md"), "---\nname: bad\n---\nNo description.\n");

    JsonNode out = kit.call("validate_skill", Map.of("path", bad.toString())).structured();

    assertThat(out.path("success").asBoolean()).isFalse();
    assertThat(out.path("errors").asInt()).isPositive();
    assertThat(out.path("diagnostics").findValuesAsText("code")).contains("DESCRIPTION_MISSING");
  }

  @Test
  void validate_missingFolder_errorResult() {
    ToolResult result = kit.call("validate_skill", Map.of("path", dir.resolve("none").toString()));

    assertThat(result.isError()).isTrue();
  }

  @Test
  void explain_codeRaisedByStrict_givesBothSeverities() {
    JsonNode out =
        kit.call("explain_diagnostic", Map.of("code", "frontmatter_unknown_key")).structured();

    assertThat(out.path("code").asText()).isEqualTo("FRONTMATTER_UNKNOWN_KEY");
    assertThat(out.path("severity").asText()).isEqualTo("warning");
    assertThat(out.path("strict_severity").asText()).isEqualTo("error");
    assertThat(out.path("summary").asText()).isNotBlank();
  }

  @Test
  void explain_noticeCode_strictLeavesItAlone() {
    JsonNode out = kit.call("explain_diagnostic", Map.of("code", "ROOT_DUPLICATE")).structured();

    assertThat(out.path("severity").asText()).isEqualTo("notice");
    assertThat(out.path("strict_severity").asText()).isEqualTo("notice");
  }

  @Test
  void explain_unknownCode_errorResult() {
    assertThat(kit.call("explain_diagnostic", Map.of("code", "NOPE")).isError()).isTrue();
  }

  @Test
  void explain_missingArgument_refusedBySchema() {
    assertThatThrownBy(() -> kit.call("explain_diagnostic", Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
