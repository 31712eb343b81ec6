package dev.skillport.loader.sibling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiblingPathsTest {
  @TempDir Path tmp;

  @Test
  void read_toolsPointerWithDotDot_reportsEscapesError() {
    SkillFolder skill = SkillFolder.in(tmp);
    skill.file("../outside.yaml", "tools: [a]\n");
    skill.tools = "sub/../../outside.yaml";

    SkillContents contents = skill.read();

    assertThat(contents.tools()).isEmpty();
    assertThat(skill.with(DiagnosticCode.SIBLING_ESCAPES))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.severity()).isEqualTo(Severity.ERROR);
              assertThat(d.message()).contains("'..'");
              assertThat(d.file()).isEqualTo(skill.dir.resolve("SKILL.md"));
            });
  }

  @Test
  void read_absoluteToolsPointer_reportsEscapesError() {
    SkillFolder skill = SkillFolder.in(tmp);
    skill.tools = skill.dir.resolve("tools.yaml").toString();
    skill.file("tools.yaml", "tools: [a]\n");

    skill.read();

    assertThat(skill.with(DiagnosticCode.SIBLING_ESCAPES)).hasSize(1);
    assertThat(skill.with(DiagnosticCode.SIBLING_ESCAPES).get(0).message()).contains("absolute");
  }

  @Test
  void read_symlinkLeavingSkill_reportsEscapesError() throws Exception {
    Path outside = Files.writeString(tmp.resolve("secret.yaml"), "tools: [steal]\n");
    SkillFolder skill = SkillFolder.in(tmp).link("tools.yaml", outside);
    skill.tools = "tools.yaml";

    SkillContents contents = skill.read();

    assertThat(contents.tools()).isEmpty();
    assertThat(skill.with(DiagnosticCode.SIBLING_ESCAPES).get(0).message())
        .contains("symbolic link");
  }

  @Test
  void read_symlinkedDirectoryLeavingSkillWithMissingFile_reportsEscapes() throws Exception {
    Path outsideDir = Files.createDirectories(tmp.resolve("elsewhere"));
    SkillFolder skill = SkillFolder.in(tmp).link("conf", outsideDir);
    skill.tools = "conf/tools.yaml";

    skill.read();

    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  void read_symlinkedDirectoryLeavingSkillWithExistingFile_reportsEscapes() throws Exception {
    Path outsideDir = Files.createDirectories(tmp.resolve("elsewhere"));
    Files.writeString(outsideDir.resolve("tools.yaml"), "tools: [steal]\n");
    SkillFolder skill = SkillFolder.in(tmp).link("conf", outsideDir);
    skill.tools = "conf/tools.yaml";

    SkillContents contents = skill.read();

    assertThat(contents.tools()).isEmpty();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  void read_skillReachedThroughALinkedFolder_readsItsOwnFiles() throws Exception {
    SkillFolder skill = SkillFolder.in(tmp).file("tools.yaml", "tools: [a]\n");
    skill.tools = "tools.yaml";
    Path linked = Files.createSymbolicLink(tmp.resolve("linked-skill"), skill.dir);

    SkillContents contents = skill.readFrom(linked);

    assertThat(contents.tools()).extracting(t -> t.name()).containsExactly("a");
    assertThat(skill.codes())
        .doesNotContain(DiagnosticCode.SIBLING_ESCAPES, DiagnosticCode.SIBLING_MISSING);
  }

  @Test
  void read_symlinkInsideSkill_isFollowed() {
    SkillFolder skill = SkillFolder.in(tmp).file("real/tools.yaml", "tools: [a]\n");
    skill.link("tools.yaml", skill.dir.resolve("real/tools.yaml"));
    skill.tools = "tools.yaml";

    assertThat(skill.read().tools()).extracting(t -> t.name()).containsExactly("a");
  }

  @Test
  void read_missingToolsFile_reportsMissingError() {
    SkillFolder skill = SkillFolder.in(tmp);
    skill.tools = "tools.yaml";

    skill.read();

    assertThat(skill.with(DiagnosticCode.SIBLING_MISSING))
        .singleElement()
        .satisfies(d -> assertThat(d.severity()).isEqualTo(Severity.ERROR));
  }

  @Test
  void expand_commaSeparatedGlobs_sortedUnionAndEmptyGlobWarns() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("workflows/b.workflow.yaml", "x: 1\n")
            .file("workflows/a.workflow.yaml", "x: 1\n")
            .file("workflows/notes.txt", "x\n")
            .file("workflows/.hidden.workflow.yaml", "x: 1\n")
            .file("more/deep/c.workflow.yaml", "x: 1\n");
    SiblingContext ctx = skill.context();
    SiblingPaths paths = new SiblingPaths(ctx);

    List<Path> found =
        paths.expand(
            "workflows",
            "workflows/*.workflow.yaml, more/**/*.workflow.yaml, nothing/*.yaml",
            "workflow");

    assertThat(found)
        .extracting(paths::relative)
        .containsExactly(
            "more/deep/c.workflow.yaml", "workflows/a.workflow.yaml", "workflows/b.workflow.yaml");
    assertThat(skill.with(DiagnosticCode.SIBLING_GLOB_EMPTY))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("nothing/*.yaml"));
  }

  @Test
  void expand_globMatchingLinkOutsideSkill_reportsEscapesAndSkipsIt() throws Exception {
    Path outside = Files.writeString(tmp.resolve("x.workflow.yaml"), "x: 1\n");
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("workflows/ok.workflow.yaml", "x: 1\n")
            .link("workflows/evil.workflow.yaml", outside);
    SiblingContext ctx = skill.context();
    SiblingPaths paths = new SiblingPaths(ctx);

    List<Path> found = paths.expand("prompts", "workflows/*.workflow.yaml", "workflow");

    assertThat(found).extracting(paths::relative).containsExactly("workflows/ok.workflow.yaml");
    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  void expand_globUnderLinkedDirectoryOutsideSkill_reportsEscapes() throws Exception {
    Path outside = Files.createDirectories(tmp.resolve("shared-prompts"));
    Files.writeString(outside.resolve("a.prompt.yaml"), "name: a\ntemplate: x\n");
    SkillFolder skill = SkillFolder.in(tmp).link("prompts", outside);
    SiblingPaths paths = new SiblingPaths(skill.context());

    assertThat(paths.expand("prompts", "prompts/*.prompt.yaml", "prompt file")).isEmpty();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  void expand_globWithDotDot_isRefused() {
    SkillFolder skill = SkillFolder.in(tmp);
    SiblingPaths paths = new SiblingPaths(skill.context());

    assertThat(paths.expand("prompts", "../*/*.yaml", "workflow")).isEmpty();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  void read_invalidUtf8_reportsUnreadable() {
    SkillFolder skill =
        SkillFolder.in(tmp).bytes("tools.yaml", new byte[] {'t', ':', ' ', (byte) 0xC3, '\n'});
    skill.tools = "tools.yaml";

    skill.read();

    assertThat(skill.with(DiagnosticCode.SIBLING_UNREADABLE).get(0).message()).contains("UTF-8");
  }

  @Test
  void read_fileOverSizeCap_reportsTooLarge() {
    SkillFolder skill = SkillFolder.in(tmp).file("tools.yaml", "tools:\n" + "  - a\n".repeat(100));
    skill.tools = "tools.yaml";
    skill.limits = new YamlLimits(100, 50, 64, 1000);

    skill.read();

    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_TOO_LARGE);
  }

  @Test
  void read_yamlProblems_mapToTheirCodesWithPositions() {
    SkillFolder skill =
        SkillFolder.in(tmp)
            .file("dup.yaml", "tools: []\ntools: []\n")
            .file("syntax.yaml", "tools: [a\n")
            .file("deep.yaml", "a: [[[[[[1]]]]]]\n");
    skill.limits = new YamlLimits(10_000, 50, 4, 1000);
    skill.tools = "dup.yaml";
    skill.read();
    assertThat(skill.with(DiagnosticCode.YAML_DUPLICATE_KEY).get(0).line()).isEqualTo(2);

    skill.tools = "syntax.yaml";
    skill.read();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.SIBLING_YAML);

    skill.tools = "deep.yaml";
    skill.read();
    assertThat(skill.codes()).containsExactly(DiagnosticCode.YAML_DEPTH_LIMIT);
  }
}
