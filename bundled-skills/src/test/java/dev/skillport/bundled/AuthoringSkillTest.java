package dev.skillport.bundled;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.testkit.SkillTestKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

class AuthoringSkillTest {
  private static BundledSkills bundled;
  private static SkillTestKit kit;

  /** The one folder the tools may act in; each test works in a folder of its own below it. */
  @TempDir static Path workspace;

  /** Beside the workspace: the tools must not reach it. */
  @TempDir static Path elsewhere;

  private Path dir;

  @BeforeAll
  static void loadSkill() throws IOException {
    bundled = BundledSkills.unpack();
    kit =
        SkillTestKit.load(
            bundled.root().resolve("skill-authoring"),
            LoaderOptions.DEFAULTS.withStrict(true),
            new AuthoringHandlers(new AuthoringFolders(List.of(workspace))));
  }

  @BeforeEach
  void folder(TestInfo test) throws IOException {
    dir = Files.createDirectories(workspace.resolve(test.getTestMethod().orElseThrow().getName()));
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
  void validate_pathOutsideTheFolders_revealsNothing() throws IOException {
    Path secret = Files.createDirectories(elsewhere.resolve("secret-skill"));
    Files.writeString(
        secret.resolve("SKILL.md"), "---\nname: secret-skill\nsecret-key: hunter2\n---\n");

    ToolResult existing = kit.call("validate_skill", Map.of("path", secret.toString()));
    ToolResult missing =
        kit.call("validate_skill", Map.of("path", elsewhere.resolve("nothing").toString()));
    ToolResult climbing =
        kit.call(
            "validate_skill",
            Map.of("path", dir.resolve("../../" + elsewhere.getFileName()).toString()));

    for (ToolResult r : List.of(existing, missing, climbing)) {
      assertThat(r.isError()).isTrue();
      assertThat(r.content().toString())
          .contains("outside the folders the skill-authoring tools may use")
          .doesNotContain("secret-key")
          .doesNotContain("SKILL.md");
    }
    // The same answer whether or not something is there: only the path given differs.
    assertThat(existing.content().toString().replace(secret.toString(), "X"))
        .isEqualTo(
            missing.content().toString().replace(elsewhere.resolve("nothing").toString(), "X"));
  }

  @Test
  void validate_linkLeadingOutOfTheFolders_isRefused() throws IOException {
    Path secret = Files.createDirectories(elsewhere.resolve("linked-skill"));
    Files.writeString(secret.resolve("SKILL.md"), "---\nname: linked-skill\n---\n");
    Path link = Files.createSymbolicLink(dir.resolve("link"), secret);

    ToolResult result = kit.call("validate_skill", Map.of("path", link.toString()));

    assertThat(result.isError()).isTrue();
    assertThat(result.content().toString()).contains("outside the folders");
  }

  @Test
  void newSkill_outsideTheFolders_writesNothing() throws IOException {
    Path target = elsewhere.resolve("new-home");
    Path link = Files.createSymbolicLink(dir.resolve("out"), elsewhere);

    ToolResult absolute =
        kit.call("new_skill", Map.of("name", "intruder", "dir", target.toString()));
    ToolResult viaLink =
        kit.call("new_skill", Map.of("name", "intruder", "dir", link.resolve("sub").toString()));
    ToolResult relative = kit.call("new_skill", Map.of("name", "intruder", "dir", "../../x"));

    assertThat(List.of(absolute, viaLink, relative)).allMatch(ToolResult::isError);
    try (var entries = Files.list(elsewhere)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .doesNotContain("new-home", "sub", "x");
    }
    assertThat(target).doesNotExist();
  }

  @Test
  void newSkill_relativeFolder_isCreatedInTheFirstFolder() {
    ToolResult created = kit.call("new_skill", Map.of("name", "rel", "dir", "relative-home"));

    assertThat(created.isError()).as(created.toString()).isFalse();
    assertThat(workspace.resolve("relative-home/rel/SKILL.md")).isRegularFile();
  }

  @Test
  void noFolders_everyPathIsRefused() {
    SkillTestKit unconfigured =
        SkillTestKit.load(
            bundled.root().resolve("skill-authoring"),
            LoaderOptions.DEFAULTS,
            new AuthoringHandlers(AuthoringFolders.NONE));

    ToolResult result = unconfigured.call("validate_skill", Map.of("path", dir.toString()));

    assertThat(result.isError()).isTrue();
    assertThat(result.content().toString()).contains("--authoring-dir");
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
    ToolResult result = kit.call("explain_diagnostic", Map.of());
    assertThat(result.isError()).isTrue();
    assertThat(result.structured().path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
  }
}
