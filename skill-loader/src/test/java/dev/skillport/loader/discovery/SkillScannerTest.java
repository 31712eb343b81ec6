package dev.skillport.loader.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.loader.testing.SkillFolder;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillScannerTest {
  @TempDir Path tmp;

  private static ScanResult scan(int depth, SkillRoot... roots) {
    return new SkillScanner(depth).scan(List.of(roots));
  }

  private static List<String> names(ScanResult r) {
    return r.skills().stream().map(s -> s.directory().getFileName().toString()).toList();
  }

  private static List<DiagnosticCode> codes(ScanResult r) {
    return r.diagnostics().stream().map(Diagnostic::code).toList();
  }

  @Test
  void scan_rootHoldingSkillMd_isOneSkillAndNotDescended() throws IOException {
    Path root = SkillFolder.named("solo").writeTo(tmp);
    SkillFolder.named("inner").writeTo(root);
    ScanResult r = scan(4, SkillRoot.of(root, Scope.REPO));
    assertThat(names(r)).containsExactly("solo");
    assertThat(r.skills().get(0).skillFile()).isEqualTo(root.toRealPath().resolve("SKILL.md"));
  }

  @Test
  void scan_nestedFolders_findsSkillsInNameOrder() {
    SkillFolder.named("zeta").writeTo(tmp);
    SkillFolder.named("alpha").writeTo(tmp);
    SkillFolder.named("mid").writeTo(tmp.resolve("group"));
    ScanResult r = scan(4, SkillRoot.of(tmp, Scope.REPO));
    assertThat(names(r)).containsExactly("alpha", "mid", "zeta");
    assertThat(r.diagnostics()).isEmpty();
  }

  @Test
  void scan_skillFolder_isNotDescendedInto() {
    Path outer = SkillFolder.named("outer").writeTo(tmp);
    SkillFolder.named("nested").writeTo(outer.resolve("sub"));
    assertThat(names(scan(4, SkillRoot.of(tmp, Scope.REPO)))).containsExactly("outer");
  }

  @Test
  void scan_hiddenGitAndNodeModules_areSkipped() {
    SkillFolder.named("a").writeTo(tmp.resolve(".hidden"));
    SkillFolder.named("b").writeTo(tmp.resolve(".git"));
    SkillFolder.named("c").writeTo(tmp.resolve("node_modules"));
    SkillFolder.named("d").writeTo(tmp);
    assertThat(names(scan(4, SkillRoot.of(tmp, Scope.REPO)))).containsExactly("d");
  }

  @Test
  void scan_depthLimit_stopsAndReportsOnce() {
    SkillFolder.named("at2").writeTo(tmp.resolve("l1"));
    SkillFolder.named("at3").writeTo(tmp.resolve("l1/l2"));
    SkillFolder.named("at3b").writeTo(tmp.resolve("x1/x2"));
    ScanResult r = scan(2, SkillRoot.of(tmp, Scope.REPO));
    assertThat(names(r)).containsExactly("at2");
    assertThat(codes(r)).containsExactly(DiagnosticCode.DISCOVERY_DEPTH_LIMIT);
  }

  @Test
  void scan_depthFour_findsSkillFourLevelsDown() {
    SkillFolder.named("deep").writeTo(tmp.resolve("a/b/c"));
    SkillFolder.named("deeper").writeTo(tmp.resolve("a/b/c/d"));
    assertThat(names(scan(4, SkillRoot.of(tmp, Scope.REPO)))).containsExactly("deep");
  }

  @Test
  void scan_lowercaseSkillMd_isFoundAndFlagged() {
    SkillFolder.named("low").lowercaseFileName().writeTo(tmp);
    ScanResult r = scan(4, SkillRoot.of(tmp, Scope.REPO));
    assertThat(r.skills())
        .singleElement()
        .satisfies(s -> assertThat(s.lowercaseFileName()).isTrue());
    assertThat(r.skills().get(0).skillFile().getFileName().toString()).isEqualTo("skill.md");
  }

  @Test
  void scan_otherCaseVariant_isNotASkill() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("mixed"));
    Files.writeString(dir.resolve("Skill.md"), "---\nname: mixed\n---\n");
    assertThat(scan(4, SkillRoot.of(tmp, Scope.REPO)).skills()).isEmpty();
  }

  @Test
  void scan_missingRoot_isReportedNotFatal() {
    SkillFolder.named("ok").writeTo(tmp.resolve("real"));
    ScanResult r =
        scan(
            4,
            new SkillRoot(tmp.resolve("nope"), Scope.REPO, "--skills"),
            SkillRoot.of(tmp.resolve("real"), Scope.REPO));
    assertThat(names(r)).containsExactly("ok");
    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.ROOT_NOT_DIRECTORY);
              assertThat(d.message()).contains("--skills");
            });
  }

  @Test
  void scan_rootThatIsAFile_isNotADirectory() throws IOException {
    Path file = Files.writeString(tmp.resolve("file.txt"), "x");
    assertThat(codes(scan(4, SkillRoot.of(file, Scope.REPO))))
        .containsExactly(DiagnosticCode.ROOT_NOT_DIRECTORY);
  }

  @Test
  void scan_sameRootTwice_keepsFirstAndNotes() {
    SkillFolder.named("s").writeTo(tmp);
    ScanResult r =
        scan(4, SkillRoot.of(tmp, Scope.TEAM), SkillRoot.of(tmp.resolve("s/.."), Scope.ADMIN));
    assertThat(r.skills())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.root().scope()).isEqualTo(Scope.TEAM);
              assertThat(s.rootOrder()).isZero();
            });
    assertThat(codes(r)).containsExactly(DiagnosticCode.ROOT_DUPLICATE);
  }

  @Test
  void scan_overlappingRoots_countSkillOnceUnderFirstRoot() {
    SkillFolder.named("s").writeTo(tmp.resolve("inner"));
    ScanResult r =
        scan(4, SkillRoot.of(tmp, Scope.REPO), SkillRoot.of(tmp.resolve("inner"), Scope.USER));
    assertThat(r.skills()).singleElement().satisfies(s -> assertThat(s.rootOrder()).isZero());
    assertThat(codes(r)).containsExactly(DiagnosticCode.SKILL_DUPLICATE_PATH);
  }

  @Test
  void scan_rootOrder_isIndexInGivenList() {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    SkillFolder.named("one").writeTo(a);
    SkillFolder.named("two").writeTo(b);
    ScanResult r =
        scan(
            4,
            SkillRoot.of(tmp.resolve("missing"), Scope.REPO),
            SkillRoot.of(b, Scope.REPO),
            SkillRoot.of(a, Scope.REPO));
    assertThat(r.skills()).extracting(DiscoveredSkill::rootOrder).containsExactly(1, 2);
    assertThat(names(r)).containsExactly("two", "one");
  }

  @Test
  void scan_linkInsideRoot_isFollowedOnce() throws IOException {
    Path real = SkillFolder.named("target").writeTo(tmp.resolve("store"));
    Path links = Files.createDirectories(tmp.resolve("links"));
    Files.createSymbolicLink(links.resolve("alias"), real);
    ScanResult r = scan(4, SkillRoot.of(tmp, Scope.REPO));
    assertThat(r.skills())
        .singleElement()
        .satisfies(s -> assertThat(s.directory()).isEqualTo(real.toRealPath()));
  }

  @Test
  void scan_linkOnlyPathInsideRoot_findsSkillByRealPath() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root"));
    Path hidden = SkillFolder.named("target").writeTo(root.resolve(".store"));
    Files.createSymbolicLink(root.resolve("visible"), hidden);
    ScanResult r = scan(4, SkillRoot.of(root, Scope.REPO));
    assertThat(r.skills())
        .singleElement()
        .satisfies(s -> assertThat(s.directory()).isEqualTo(hidden.toRealPath()));
  }

  @Test
  void scan_linkLeavingRoot_isNotFollowed() throws IOException {
    Path outside = SkillFolder.named("outside").writeTo(tmp.resolve("elsewhere"));
    Path root = Files.createDirectories(tmp.resolve("root"));
    Files.createSymbolicLink(root.resolve("escape"), outside);
    ScanResult r = scan(4, SkillRoot.of(root, Scope.REPO));
    assertThat(r.skills()).isEmpty();
    assertThat(codes(r)).containsExactly(DiagnosticCode.DISCOVERY_SYMLINK_SKIPPED);
  }

  @Test
  void scan_linkLoop_terminates() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root"));
    Path a = Files.createDirectories(root.resolve("a"));
    Files.createSymbolicLink(a.resolve("back"), root);
    Files.createSymbolicLink(a.resolve("self"), a);
    SkillFolder.named("s").writeTo(a);
    ScanResult r = scan(50, SkillRoot.of(root, Scope.REPO));
    assertThat(names(r)).containsExactly("s");
  }

  @Test
  void scan_zeroDepth_onlyLooksAtRoot() {
    SkillFolder.named("child").writeTo(tmp);
    ScanResult r = scan(0, SkillRoot.of(tmp, Scope.REPO));
    assertThat(r.skills()).isEmpty();
    assertThat(codes(r)).containsExactly(DiagnosticCode.DISCOVERY_DEPTH_LIMIT);
  }

  @Test
  void scan_namesThatLookCaseInsensitive_fallBackToListingEveryFolder() throws IOException {
    // A second name for the first SKILL.md (a hard link) is what a case-insensitive file system
    // shows: the scanner then lists folders instead of asking for SKILL.md by name.
    Path first = SkillFolder.named("a-first").writeTo(tmp);
    Files.createLink(first.resolve("sKILL.md"), first.resolve("SKILL.md"));
    Path lower = SkillFolder.named("b-lower").writeTo(tmp);
    Files.move(lower.resolve("SKILL.md"), lower.resolve("skill.md"));
    SkillFolder.named("c-upper").writeTo(tmp);
    SkillFolder.named("nested").writeTo(tmp.resolve("c-upper").resolve("sub"));

    ScanResult r = scan(4, SkillRoot.of(tmp, Scope.REPO));

    assertThat(names(r)).containsExactly("a-first", "b-lower", "c-upper");
    assertThat(r.skills())
        .extracting(DiscoveredSkill::lowercaseFileName)
        .containsExactly(false, true, false);
    assertThat(r.skills().get(1).skillFile().getFileName().toString()).isEqualTo("skill.md");
  }

  @Test
  void scan_skillFileNamedInOtherCase_isNotASkill() throws IOException {
    Path odd = SkillFolder.named("odd").writeTo(tmp);
    Files.move(odd.resolve("SKILL.md"), odd.resolve("Skill.md"));
    SkillFolder.named("fine").writeTo(tmp);

    assertThat(names(scan(4, SkillRoot.of(tmp, Scope.REPO)))).containsExactly("fine");
  }
}
