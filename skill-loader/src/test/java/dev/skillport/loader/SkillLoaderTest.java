package dev.skillport.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.loader.testing.SkillFolder;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SkillLoaderTest {
  @TempDir Path tmp;

  private static final SkillLoader LOADER = new SkillLoader(LoaderOptions.DEFAULTS);

  private static List<DiagnosticCode> codes(LoadResult r, String skill) {
    return r.diagnosticsFor(skill).stream().map(Diagnostic::code).toList();
  }

  @Test
  void load_noRoots_isEmpty() {
    LoadResult r = LOADER.load(List.of());
    assertThat(r.skills()).isEmpty();
    assertThat(r.diagnostics()).isEmpty();
  }

  @Test
  void load_validSkills_areAvailableAndSortedByName() throws IOException {
    SkillFolder.named("zebra").writeTo(tmp);
    SkillFolder.named("apple").description("Fruit").writeTo(tmp.resolve("nested"));
    LoadResult r = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    assertThat(r.skills()).extracting(Skill::name).containsExactly("apple", "zebra");
    assertThat(r.skills()).extracting(Skill::state).containsOnly(SkillState.AVAILABLE);
    Skill apple = r.skill("apple").orElseThrow();
    assertThat(apple.manifest().description()).isEqualTo("Fruit");
    assertThat(apple.location().directory()).isEqualTo(tmp.resolve("nested/apple").toRealPath());
    assertThat(apple.location().root()).isEqualTo(tmp.toRealPath());
    assertThat(r.hasErrors()).isFalse();
  }

  @Test
  void load_sameNameInTwoScopes_higherScopeAnswers() throws IOException {
    Path repo = tmp.resolve("repo");
    Path team = tmp.resolve("team");
    SkillFolder.named("shared").description("repo copy").writeTo(repo);
    SkillFolder.named("shared").description("team copy").writeTo(team);
    LoadResult r =
        LOADER.load(List.of(SkillRoot.of(repo, Scope.REPO), SkillRoot.of(team, Scope.TEAM)));
    assertThat(r.skill("shared").orElseThrow().manifest().description()).isEqualTo("team copy");
    assertThat(r.skills())
        .extracting(Skill::state)
        .containsExactly(SkillState.AVAILABLE, SkillState.SHADOWED);
    assertThat(r.skills().get(1).shadowedBy())
        .isEqualTo(team.resolve("shared").toRealPath().toString());
    assertThat(codes(r, "shared")).containsExactly(DiagnosticCode.SHADOWED);
  }

  @Test
  void load_brokenHigherScopeSkill_leavesLowerOneAnswering() {
    Path repo = tmp.resolve("repo");
    Path admin = tmp.resolve("admin");
    SkillFolder.named("shared").writeTo(repo);
    SkillFolder.named("shared").noDescription().writeTo(admin);
    LoadResult r =
        LOADER.load(List.of(SkillRoot.of(admin, Scope.ADMIN), SkillRoot.of(repo, Scope.REPO)));
    assertThat(r.skill("shared").orElseThrow().scope()).isEqualTo(Scope.REPO);
    assertThat(r.skills())
        .extracting(Skill::state)
        .containsExactly(SkillState.AVAILABLE, SkillState.SKIPPED);
  }

  @Test
  void load_badSkill_doesNotStopOthers() {
    SkillFolder.named("good").writeTo(tmp);
    SkillFolder.named("bad").frontmatter("name: bad\ndescription: [unclosed\n").writeTo(tmp);
    SkillFolder.named("nofence").skillMd("just text\n").writeTo(tmp);
    LoadResult r = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    assertThat(r.skill("good").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(r.skill("bad").orElseThrow().state()).isEqualTo(SkillState.SKIPPED);
    assertThat(r.skill("nofence").orElseThrow().state()).isEqualTo(SkillState.SKIPPED);
    assertThat(codes(r, "bad")).containsExactly(DiagnosticCode.FRONTMATTER_YAML);
    assertThat(codes(r, "nofence")).containsExactly(DiagnosticCode.FRONTMATTER_MISSING);
  }

  @Test
  void load_frontmatterError_skipsSiblingFiles() {
    SkillFolder.named("nodesc").noDescription().dccMcp("tools: missing.yaml").writeTo(tmp);
    SkillFolder.named("hasdesc").dccMcp("tools: missing.yaml").writeTo(tmp);
    LoadResult r = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    assertThat(codes(r, "nodesc")).containsExactly(DiagnosticCode.DESCRIPTION_MISSING);
    assertThat(codes(r, "hasdesc")).contains(DiagnosticCode.SIBLING_MISSING);
    assertThat(r.skill("hasdesc").orElseThrow().state()).isEqualTo(SkillState.SKIPPED);
  }

  @Test
  void load_lowercaseSkillFile_warnsUnderSkillName() {
    SkillFolder.named("low").lowercaseFileName().writeTo(tmp);
    LoadResult r = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    assertThat(r.skill("low").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(codes(r, "low")).containsExactly(DiagnosticCode.SKILL_MD_LOWERCASE);
  }

  @Test
  void load_strict_turnsUnknownKeyIntoRejection() {
    SkillFolder.named("loose").frontmatterLine("version: 1.0.0").writeTo(tmp);
    LoadResult lenient = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    LoadResult strict =
        new SkillLoader(LoaderOptions.DEFAULTS.withStrict(true))
            .load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    assertThat(lenient.skill("loose").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(strict.skill("loose").orElseThrow().state()).isEqualTo(SkillState.SKIPPED);
    assertThat(strict.diagnosticsFor("loose"))
        .singleElement()
        .satisfies(d -> assertThat(d.severity()).isEqualTo(Severity.ERROR));
  }

  @Test
  void load_dependencies_resolveAndGiveLoadOrder() {
    SkillFolder.named("app").depends("lib").writeTo(tmp);
    SkillFolder.named("lib").file("metadata/depends.md", "- core\n").writeTo(tmp);
    SkillFolder.named("core").writeTo(tmp);
    SkillFolder.named("waits").depends("nowhere").writeTo(tmp);
    LoadResult r = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    assertThat(r.skill("app").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(r.skill("waits").orElseThrow().state()).isEqualTo(SkillState.PENDING_DEPS);
    assertThat(r.loadOrder("app")).extracting(Skill::name).containsExactly("core", "lib", "app");
    assertThat(r.loadOrder()).extracting(Skill::name).containsSubsequence("core", "lib", "app");
  }

  @Test
  void load_rootOrder_isIndexOfRootInList() {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    SkillFolder.named("x").writeTo(a);
    SkillFolder.named("y").writeTo(b);
    LoadResult r =
        LOADER.load(
            List.of(
                SkillRoot.of(tmp.resolve("absent"), Scope.REPO),
                SkillRoot.of(a, Scope.REPO),
                SkillRoot.of(b, Scope.USER)));
    assertThat(r.skill("x").orElseThrow().location().rootOrder()).isEqualTo(1);
    assertThat(r.skill("y").orElseThrow().location().rootOrder()).isEqualTo(2);
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.ROOT_NOT_DIRECTORY);
  }

  @Test
  void load_strictMissingRoot_followsCodeStrictRule() {
    LoadResult r =
        new SkillLoader(LoaderOptions.DEFAULTS.withStrict(true))
            .load(List.of(SkillRoot.of(tmp.resolve("absent"), Scope.REPO)));
    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.ROOT_NOT_DIRECTORY);
              assertThat(d.severity())
                  .isEqualTo(
                      DiagnosticCode.ROOT_NOT_DIRECTORY.raisedByStrict()
                          ? Severity.ERROR
                          : Severity.WARNING);
            });
  }

  @Test
  void load_diagnostics_areSortedByOrder() {
    SkillFolder.named("b-skill").noDescription().frontmatterLine("dcc: x").writeTo(tmp);
    SkillFolder.named("a-skill").name("other").writeTo(tmp);
    LoadResult r = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    List<Diagnostic> sorted = new ArrayList<>(r.diagnostics());
    sorted.sort(Diagnostic.ORDER);
    assertThat(r.diagnostics()).hasSizeGreaterThan(2).isEqualTo(sorted);
  }

  @Test
  void load_parallelism_givesIdenticalResult() {
    for (int i = 0; i < 24; i++) {
      SkillFolder f = SkillFolder.named("skill-" + (char) ('a' + i));
      switch (i % 6) {
        case 0 -> f.depends("skill-" + (char) ('a' + (i + 1) % 24));
        case 1 -> f.noDescription();
        case 2 -> f.frontmatterLine("tags: [x]");
        case 3 -> f.name("dup-name");
        case 4 -> f.dccMcp("layer: nonsense");
        default -> f.frontmatter("name: [");
      }
      f.writeTo(tmp.resolve(i % 2 == 0 ? "even" : "odd"));
    }
    List<SkillRoot> roots =
        List.of(
            SkillRoot.of(tmp.resolve("odd"), Scope.TEAM),
            SkillRoot.of(tmp.resolve("even"), Scope.REPO));
    LoadResult one = new SkillLoader(LoaderOptions.DEFAULTS).load(roots);
    LoadResult four = new SkillLoader(LoaderOptions.DEFAULTS.withParallelism(4)).load(roots);
    assertThat(one.skills()).hasSize(24);
    assertThat(four.skills()).isEqualTo(one.skills());
    assertThat(four.diagnostics()).isEqualTo(one.diagnostics());
    assertThat(one.skills()).extracting(Skill::state).contains(SkillState.SHADOWED);
  }

  @Test
  void loadSkill_folderWithoutSkillMd_isMissing() throws IOException {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    LoadResult r = LOADER.loadSkill(empty, Scope.REPO);
    assertThat(r.skills()).isEmpty();
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.SKILL_MD_MISSING);
  }

  @Test
  void loadSkill_skillFolder_loadsOnlyIt() {
    Path dir = SkillFolder.named("single").writeTo(tmp);
    SkillFolder.named("inside").writeTo(dir.resolve("sub"));
    LoadResult r = LOADER.loadSkill(dir, Scope.USER);
    assertThat(r.skills())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.name()).isEqualTo("single");
              assertThat(s.scope()).isEqualTo(Scope.USER);
            });
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void load_hostileSkills_areRejectedAndGoodOneLoads() throws IOException {
    SkillFolder.named("good").writeTo(tmp);
    SkillFolder.named("deep")
        .frontmatter(
            "name: deep\ndescription: d\nmetadata: "
                + "{a: ".repeat(10_000)
                + "1"
                + "}".repeat(10_000))
        .writeTo(tmp);
    SkillFolder.named("blockdeep")
        .frontmatter(
            "name: blockdeep\ndescription: d\nmetadata:\n  x:\n    " + "- ".repeat(10_000) + "x")
        .writeTo(tmp);
    StringBuilder bomb =
        new StringBuilder(
            "name: bomb\ndescription: d\nmetadata:\n  l0: &l0 [a, b, c, d, e, f, g, h, i, j]\n");
    for (int level = 1; level <= 9; level++) {
      bomb.append("  l").append(level).append(": &l").append(level).append(" [");
      for (int k = 0; k < 9; k++) {
        bomb.append(k == 0 ? "" : ", ").append("*l").append(level - 1);
      }
      bomb.append("]\n");
    }
    SkillFolder.named("bomb").frontmatter(bomb.toString()).writeTo(tmp);
    SkillFolder.named("dupe")
        .frontmatter("name: dupe\ndescription: a\ndescription: b\n")
        .writeTo(tmp);
    Path huge = Files.createDirectories(tmp.resolve("huge"));
    try (var out = Files.newOutputStream(huge.resolve("SKILL.md"))) {
      out.write("---\nname: huge\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      byte[] chunk =
          ("k: " + "v".repeat(1020) + "\n")
              .repeat(512)
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      // Half a megabyte: over the frontmatter limit, under the limit of the whole file.
      out.write(chunk);
      out.write("---\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
    LoadResult r = LOADER.load(List.of(SkillRoot.of(tmp, Scope.REPO)));
    assertThat(r.skill("good").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(codes(r, "deep")).containsExactly(DiagnosticCode.YAML_DEPTH_LIMIT);
    assertThat(codes(r, "blockdeep")).containsExactly(DiagnosticCode.YAML_DEPTH_LIMIT);
    assertThat(codes(r, "bomb")).containsExactly(DiagnosticCode.YAML_ALIAS_LIMIT);
    assertThat(codes(r, "dupe")).containsExactly(DiagnosticCode.YAML_DUPLICATE_KEY);
    assertThat(codes(r, "huge")).containsExactly(DiagnosticCode.FRONTMATTER_TOO_LARGE);
    assertThat(r.skills())
        .filteredOn(s -> !s.name().equals("good"))
        .extracting(Skill::state)
        .containsOnly(SkillState.SKIPPED);
  }
}
