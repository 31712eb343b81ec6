package dev.skillport.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the operator's trust binds, read from real folders: the program on a {@code PATH} of the
 * test's own, the script an argument names, a module the script imports, the environment names, the
 * folder, and the bounds on what is read.
 */
class BridgeTrustTest {
  @TempDir Path tmp;
  private Path bin;
  private Path first;
  private Path second;
  private Path trustFile;

  @BeforeEach
  void setUp() throws IOException {
    bin = Files.createDirectories(tmp.resolve("bin"));
    executable(bin.resolve("runner"), "#!/bin/sh\necho runner 1\n");
    first = Files.createDirectories(tmp.resolve("first"));
    second = Files.createDirectories(tmp.resolve("second"));
    trustFile = tmp.resolve("trusted.yaml");
  }

  @Test
  void check_trustFileEntryMatchingWhatIsOnDisk_isTrusted() throws Exception {
    Path dir = bridge(second, "fx", List.of("TOKEN"));
    trust(dir);

    BridgeTrust.Verdict verdict = fileTrust().check(skill("fx"));

    assertThat(verdict).isInstanceOf(BridgeTrust.Verdict.Trusted.class);
    BridgeFingerprint f = ((BridgeTrust.Verdict.Trusted) verdict).fingerprint();
    assertThat(f.program()).isEqualTo(bin.resolve("runner"));
    assertThat(f.folder()).isEqualTo(dir.toRealPath());
    assertThat(f.argFiles()).containsOnlyKeys("server.py");
    assertThat(f.envNames()).containsExactly("TOKEN");
    assertThat(f.files()).containsOnlyKeys("SKILL.md", "mcp.yaml", "server.py", "lib/helper.py");
  }

  @Test
  void check_programEdited_isChangedNamingTheProgram() throws Exception {
    trust(bridge(second, "fx", List.of()));
    executable(bin.resolve("runner"), "#!/bin/sh\necho runner 2\n");

    assertThat(fileTrust().check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Changed.class)
        .asString()
        .contains("its program " + bin.resolve("runner") + " changed")
        .contains("skillport trust-bridge " + second.resolve("fx"))
        .contains("--trust-file " + trustFile);
  }

  @Test
  void check_scriptItRunsEdited_isChangedNamingTheScript() throws Exception {
    Path dir = bridge(second, "fx", List.of());
    trust(dir);
    Files.writeString(dir.resolve("server.py"), "print('edited')\n");

    assertThat(fileTrust().check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Changed.class)
        .asString()
        .contains("the file its arguments name changed (server.py changed)")
        .contains("its folder's files changed (server.py changed)");
  }

  @Test
  void check_moduleTheScriptImportsEdited_isChanged() throws Exception {
    Path dir = bridge(second, "fx", List.of());
    trust(dir);
    Files.writeString(dir.resolve("lib/helper.py"), "VALUE = 2\n");
    Files.writeString(dir.resolve("lib/extra.py"), "");

    assertThat(fileTrust().check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Changed.class)
        .asString()
        .contains("its folder's files changed (lib/extra.py added, lib/helper.py changed)");
  }

  @Test
  void check_environmentNameChanged_isChangedNamingBothLists() throws Exception {
    trust(bridge(second, "fx", List.of("TOKEN")));
    bridge(second, "fx", List.of("OTHER_TOKEN"));

    assertThat(fileTrust().check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Changed.class)
        .asString()
        .contains(
            "names of its environment variables changed (now [OTHER_TOKEN], trusted [TOKEN])");
  }

  @Test
  void check_sameNameInAnotherRootListedFirst_isUntrusted() throws Exception {
    trust(bridge(second, "fx", List.of()));
    copy(second.resolve("fx"), first.resolve("fx"));

    Skill served = skill("fx");
    assertThat(served.location().directory()).isEqualTo(first.resolve("fx"));
    assertThat(fileTrust().check(served))
        .isInstanceOf(BridgeTrust.Verdict.Untrusted.class)
        .asString()
        .contains("trusts a skill of that name in another folder")
        .contains(first.resolve("fx").toRealPath().toString());
  }

  @Test
  void check_trustBridgeFlag_pinsTheFirstReading_andRefusesLaterEditsAndCopies() throws Exception {
    Path dir = bridge(second, "fx", List.of());
    BridgeTrust flagged = new BridgeTrust(Set.of("fx"), null, new Redactor(), reader());
    assertThat(flagged.check(skill("fx"))).isInstanceOf(BridgeTrust.Verdict.Trusted.class);

    Files.writeString(dir.resolve("lib/helper.py"), "VALUE = 3\n");
    assertThat(flagged.check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Changed.class)
        .asString()
        .contains("changed since this server trusted it at start")
        .contains("lib/helper.py changed");

    copy(dir, first.resolve("fx"));
    assertThat(flagged.check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Untrusted.class)
        .asString()
        .contains("--trust-bridge fx trusts the skill of that name in " + dir.toRealPath());
  }

  @Test
  void check_entryOfTheEarlierFormat_isUntrustedWithTheHintToTrustAgain() throws Exception {
    bridge(second, "fx", List.of());
    Files.writeString(
        trustFile,
        "bridges:\n- skill: \"fx\"\n  command: \"runner\"\n  args: [\"server.py\"]\n"
            + "  digest: \"sha256:00\"\n");

    assertThat(fileTrust().check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Untrusted.class)
        .asString()
        .contains("written by an earlier version, which did not bind the program")
        .contains("skillport trust-bridge " + second.resolve("fx"));
  }

  @Test
  void check_folderOverTheFileLimit_isUnverifiableSayingSo() throws Exception {
    Path dir = bridge(second, "fx", List.of());
    for (int i = 0; i < 3; i++) {
      Files.writeString(dir.resolve("data" + i + ".txt"), "x");
    }
    BridgeTrust flagged =
        new BridgeTrust(
            Set.of("fx"), null, new Redactor(), new FingerprintReader(bin.toString(), 5, 1 << 20));

    assertThat(flagged.check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Unverifiable.class)
        .asString()
        .contains("its folder holds more than 5 files")
        .contains("keep it within 5 files");
  }

  @Test
  void check_folderOverTheByteLimit_isUnverifiable() throws Exception {
    Path dir = bridge(second, "fx", List.of());
    Files.write(dir.resolve("blob.bin"), new byte[4096]);
    BridgeTrust flagged =
        new BridgeTrust(
            Set.of("fx"), null, new Redactor(), new FingerprintReader(bin.toString(), 100, 2048));

    assertThat(flagged.check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Unverifiable.class)
        .asString()
        .contains("files are larger than");
  }

  @Test
  void check_linkLoopInTheFolder_isUnverifiable() throws Exception {
    Path dir = bridge(second, "fx", List.of());
    Files.createSymbolicLink(dir.resolve("lib/loop"), dir);
    BridgeTrust flagged = new BridgeTrust(Set.of("fx"), null, new Redactor(), reader());

    assertThat(flagged.check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Unverifiable.class)
        .asString()
        .contains("links back into itself at lib/loop");
  }

  @Test
  void check_commandOnNoFolderOfThePath_isUnverifiable() throws Exception {
    bridge(second, "fx", List.of());
    BridgeTrust flagged =
        new BridgeTrust(
            Set.of("fx"),
            null,
            new Redactor(),
            new FingerprintReader(tmp.resolve("none").toString()));

    assertThat(flagged.check(skill("fx")))
        .isInstanceOf(BridgeTrust.Verdict.Unverifiable.class)
        .asString()
        .contains("its command 'runner' is found on no folder of the server's PATH");
  }

  @Test
  void check_untrustedBridge_isNotReadAtAll() throws Exception {
    Path dir = bridge(second, "fx", List.of());
    Files.createSymbolicLink(dir.resolve("lib/loop"), dir);

    assertThat(fileTrust().check(skill("fx"))).isInstanceOf(BridgeTrust.Verdict.Untrusted.class);
  }

  @Test
  void digest_fileRewrittenWithItsOldSizeAndTime_isReadAgain() throws Exception {
    Path file = Files.writeString(tmp.resolve("same.txt"), "aaaa");
    FileTime time = Files.getLastModifiedTime(file);
    FingerprintReader reader = reader();
    String before = reader.digest(file, 1 << 20, "file");

    Files.writeString(file, "bbbb");
    Files.setLastModifiedTime(file, time);

    assertThat(reader.digest(file, 1 << 20, "file")).isNotEqualTo(before);
    assertThat(reader.digest(file, 1 << 20, "file"))
        .isEqualTo(new FingerprintReader(null).digest(file, 1 << 20, "file"));
  }

  @Test
  void put_keepsOtherEntriesAndEarlierOnes_replacingOnlyTheSameFolder() throws Exception {
    Files.writeString(
        trustFile,
        "bridges:\n- skill: \"old\"\n  command: \"x\"\n  args: []\n  digest: \"sha256:00\"\n");
    Path a = bridge(second, "fx", List.of("TOKEN"));
    trust(a);
    trust(a);
    Path b = bridge(first, "fx", List.of());

    TrustFile.put(trustFile, "fx", reader().read(skill("fx")));

    List<TrustFile.Entry> entries = TrustFile.read(trustFile);
    assertThat(entries).hasSize(3);
    assertThat(entries.get(0)).isInstanceOf(TrustFile.Entry.Legacy.class);
    List<Path> folders = new ArrayList<>();
    for (TrustFile.Entry e : entries.subList(1, 3)) {
      folders.add(((TrustFile.Entry.Current) e).fingerprint().folder());
    }
    assertThat(folders).containsExactly(a.toRealPath(), b.toRealPath());
    assertThat(((TrustFile.Entry.Current) entries.get(1)).fingerprint())
        .isEqualTo(
            reader()
                .read(
                    new SkillLoader(LoaderOptions.DEFAULTS)
                        .load(List.of(SkillRoot.of(second, Scope.REPO)))
                        .skill("fx")
                        .orElseThrow()));
  }

  @Test
  void read_entryMissingItsFolderAndDigest_isRefusedNamingTheEntry() throws Exception {
    Files.writeString(trustFile, "bridges:\n- skill: \"fx\"\n  command: \"x\"\n");

    assertThatThrownBy(() -> TrustFile.read(trustFile))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("entry 1 needs a folder");
  }

  // ---- fixtures ----------------------------------------------------------------------------

  private FingerprintReader reader() {
    return new FingerprintReader(bin.toString());
  }

  private BridgeTrust fileTrust() {
    return new BridgeTrust(Set.of(), trustFile, new Redactor(), reader());
  }

  private void trust(Path dir) throws Exception {
    Skill skill =
        new SkillLoader(LoaderOptions.DEFAULTS)
            .load(List.of(SkillRoot.of(dir.getParent(), Scope.REPO)))
            .skill(dir.getFileName().toString())
            .orElseThrow();
    TrustFile.put(trustFile, skill.name(), reader().read(skill));
  }

  /** The skill as a server with both roots (first listed first) reads it. */
  private Skill skill(String name) {
    return new SkillLoader(LoaderOptions.DEFAULTS)
        .load(List.of(SkillRoot.of(first, Scope.REPO), SkillRoot.of(second, Scope.REPO)))
        .skill(name)
        .orElseThrow();
  }

  /** A bridge skill running {@code runner server.py}, which imports {@code lib/helper.py}. */
  private static Path bridge(Path root, String name, List<String> envNames) throws IOException {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: A bridged MCP server for tests.\nmetadata:\n  dcc-mcp:\n"
            + "    mcp: mcp.yaml\n---\nCall its tools.\n");
    StringBuilder yaml = new StringBuilder("command: runner\nargs: [server.py]\n");
    if (!envNames.isEmpty()) {
      yaml.append("env:\n");
      envNames.forEach(n -> yaml.append("  ").append(n).append(": \"${").append(n).append("}\"\n"));
    }
    Files.writeString(dir.resolve("mcp.yaml"), yaml);
    Files.writeString(dir.resolve("server.py"), "import lib.helper\n");
    Files.writeString(dir.resolve("lib/helper.py"), "VALUE = 1\n");
    return dir;
  }

  private static void copy(Path from, Path to) throws IOException {
    for (String name : List.of("SKILL.md", "mcp.yaml", "server.py", "lib/helper.py")) {
      Files.createDirectories(to.resolve(name).getParent());
      Files.copy(from.resolve(name), to.resolve(name));
    }
  }

  private static void executable(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
