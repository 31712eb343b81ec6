package dev.skillport.loader.skillmd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.testing.SkillFolder;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.SkillManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SkillMdParserTest {
  @TempDir Path tmp;

  private DiagnosticCollector diagnostics = new DiagnosticCollector(false, null);

  private Optional<SkillManifest> parse(Path dir) {
    return parse(dir, YamlLimits.FRONTMATTER);
  }

  private Optional<SkillManifest> parse(Path dir, YamlLimits limits) {
    return parse(dir, new SkillMdParser(limits));
  }

  private Optional<SkillManifest> parse(Path dir, SkillMdParser parser) {
    Path file =
        Files.exists(dir.resolve("SKILL.md")) ? dir.resolve("SKILL.md") : dir.resolve("skill.md");
    return parser.parse(file, dir, diagnostics);
  }

  private Optional<SkillManifest> parseText(String name, String text) {
    return parse(SkillFolder.named(name).skillMd(text).writeTo(tmp));
  }

  private Path writeBytes(String name, byte[] bytes) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(name));
    Files.write(dir.resolve("SKILL.md"), bytes);
    return dir;
  }

  private List<DiagnosticCode> codes() {
    return diagnostics.diagnostics().stream().map(Diagnostic::code).toList();
  }

  private Diagnostic only(DiagnosticCode code) {
    List<Diagnostic> found =
        diagnostics.diagnostics().stream().filter(d -> d.code() == code).toList();
    assertThat(found).as("diagnostics %s", codes()).hasSize(1);
    return found.get(0);
  }

  @Test
  void parse_minimalSkill_readsFieldsAndBody() {
    SkillManifest m =
        parseText("demo", "---\nname: demo\ndescription: Does things.\n---\n# Title\nText\n")
            .orElseThrow();
    assertThat(m.name()).isEqualTo("demo");
    assertThat(m.description()).isEqualTo("Does things.");
    assertThat(m.body()).isEqualTo("# Title\nText\n");
    assertThat(codes()).isEmpty();
  }

  @Test
  void parse_crlf_isAcceptedAndBodyNormalised() {
    SkillManifest m =
        parseText("demo", "---\r\nname: demo\r\ndescription: d\r\n---\r\nline1\r\nline2\r\n")
            .orElseThrow();
    assertThat(m.description()).isEqualTo("d");
    assertThat(m.body()).isEqualTo("line1\nline2\n");
    assertThat(codes()).isEmpty();
  }

  @Test
  void parse_loneCarriageReturns_areLineBreaks() {
    SkillManifest m =
        parseText("demo", "---\rname: demo\rdescription: d\r---\rbody\r").orElseThrow();
    assertThat(m.body()).isEqualTo("body\n");
  }

  @Test
  void parse_bom_isToleratedWithWarning() throws IOException {
    byte[] text = "---\nname: bom\ndescription: d\n---\n".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[text.length + 3];
    bytes[0] = (byte) 0xEF;
    bytes[1] = (byte) 0xBB;
    bytes[2] = (byte) 0xBF;
    System.arraycopy(text, 0, bytes, 3, text.length);
    SkillManifest m = parse(writeBytes("bom", bytes)).orElseThrow();
    assertThat(m.name()).isEqualTo("bom");
    assertThat(only(DiagnosticCode.FRONTMATTER_BOM).severity()).isEqualTo(Severity.WARNING);
  }

  @Test
  void parse_invalidUtf8_isEncodingError() throws IOException {
    byte[] bytes = "---\nname: x\ndescription: caf\u00e9\n---\n".getBytes(StandardCharsets.UTF_8);
    byte[] bad = bytes.clone();
    // Replace the two-byte é with a lone continuation byte.
    int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("caf") + 3;
    bad[at] = (byte) 0x80;
    bad[at + 1] = (byte) 'x';
    assertThat(parse(writeBytes("x", bad))).isEmpty();
    assertThat(only(DiagnosticCode.SKILL_MD_ENCODING).line()).isEqualTo(3);
  }

  @Test
  void parse_invalidUtf8InBody_isEncodingError() throws IOException {
    byte[] head = "---\nname: x\ndescription: d\n---\nbody ".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[head.length + 2];
    System.arraycopy(head, 0, bytes, 0, head.length);
    bytes[head.length] = (byte) 0xC3;
    bytes[head.length + 1] = (byte) 0x28;
    assertThat(parse(writeBytes("x", bytes))).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.SKILL_MD_ENCODING);
  }

  @Test
  void parse_noOpeningFence_isFrontmatterMissing() {
    assertThat(parseText("x", "# Just markdown\n")).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_MISSING);
  }

  @Test
  void parse_emptyFile_isFrontmatterMissing() {
    assertThat(parseText("x", "")).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_MISSING);
  }

  @Test
  void parse_indentedOrDecoratedOpeningFence_isFrontmatterMissing() {
    assertThat(parseText("a", " ---\nname: a\n---\n")).isEmpty();
    assertThat(parseText("b", "--- x\nname: b\n---\n")).isEmpty();
    assertThat(parseText("c", "----\nname: c\n----\n")).isEmpty();
    assertThat(codes()).containsOnly(DiagnosticCode.FRONTMATTER_MISSING).hasSize(3);
  }

  @Test
  void parse_fenceWithTrailingSpaces_isAccepted() {
    SkillManifest m =
        parseText("demo", "--- \t\nname: demo\ndescription: d\n---   \nbody\n").orElseThrow();
    assertThat(m.body()).isEqualTo("body\n");
  }

  @Test
  void parse_noClosingFence_isUnterminated() {
    assertThat(parseText("x", "---\nname: x\ndescription: d\n")).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_UNTERMINATED);
  }

  @Test
  void parse_dashesInsideValue_doNotCloseFrontmatter() {
    SkillManifest m =
        parseText("demo", "---\nname: demo\ndescription: \"before --- after\"\n---\nbody\n")
            .orElseThrow();
    assertThat(m.description()).isEqualTo("before --- after");
  }

  @Test
  void parse_dashesInBlockScalar_doNotCloseFrontmatter() {
    SkillManifest m =
        parseText("demo", "---\nname: demo\ndescription: |\n  first\n  ---\n  last\n---\nbody\n")
            .orElseThrow();
    assertThat(m.description()).isEqualTo("first\n---\nlast");
    assertThat(m.body()).isEqualTo("body\n");
  }

  @Test
  void parse_horizontalRuleInBody_staysInBody() {
    SkillManifest m =
        parseText("demo", "---\nname: demo\ndescription: d\n---\nabove\n---\nbelow\n---\n")
            .orElseThrow();
    assertThat(m.body()).isEqualTo("above\n---\nbelow\n---\n");
  }

  @Test
  void parse_quotedValueSpanningFenceLine_isYamlErrorNotSilentCut() {
    assertThat(parseText("x", "---\nname: x\ndescription: \"multi\n---\nline\"\n---\n")).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_YAML);
  }

  @Test
  void parse_yamlError_pointsAtSkillMdLine() {
    assertThat(parseText("x", "---\nname: x\ndescription: d\nbad: [unclosed\n---\n")).isEmpty();
    assertThat(only(DiagnosticCode.FRONTMATTER_YAML).line()).isGreaterThanOrEqualTo(4);
  }

  @Test
  void parse_duplicateKey_isReportedOnItsLine() {
    assertThat(parseText("x", "---\nname: x\ndescription: d\nname: y\n---\n")).isEmpty();
    assertThat(only(DiagnosticCode.YAML_DUPLICATE_KEY).line()).isEqualTo(4);
  }

  @Test
  void parse_complexKey_isKeyNotString() {
    assertThat(parseText("x", "---\nname: x\n? [a]\n: b\n---\n")).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.YAML_KEY_NOT_STRING);
  }

  @Test
  void parse_frontmatterList_isNotMapping() {
    assertThat(parseText("x", "---\n- a\n- b\n---\n")).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_NOT_MAPPING);
  }

  @Test
  void parse_emptyFrontmatter_reportsMissingDescription() {
    SkillManifest m = parseText("empty", "---\n---\nbody\n").orElseThrow();
    assertThat(m.name()).isEqualTo("empty");
    assertThat(codes())
        .containsExactlyInAnyOrder(DiagnosticCode.NAME_MISSING, DiagnosticCode.DESCRIPTION_MISSING);
  }

  @Test
  void parse_unknownTopLevelKeys_warnWithNestedHome() {
    SkillManifest m =
        parseText(
                "demo",
                "---\nname: demo\ndescription: d\nversion: 1.2\ntools: tools.yaml\n"
                    + "search_hint: x\nnext-tools: {}\nauthor: me\n---\n")
            .orElseThrow();
    List<String> messages =
        diagnostics.diagnostics().stream()
            .filter(d -> d.code() == DiagnosticCode.FRONTMATTER_UNKNOWN_KEY)
            .map(Diagnostic::message)
            .toList();
    assertThat(messages).hasSize(5);
    assertThat(messages)
        .anySatisfy(s -> assertThat(s).contains("'version'", "metadata.dcc-mcp.version"))
        .anySatisfy(s -> assertThat(s).contains("'tools'", "metadata.dcc-mcp.tools"))
        .anySatisfy(s -> assertThat(s).contains("'search_hint'", "metadata.dcc-mcp.search-hint"))
        .anySatisfy(s -> assertThat(s).contains("'next-tools'", "tools file"))
        .anySatisfy(s -> assertThat(s).contains("'author'", "metadata.author"));
    assertThat(at(DiagnosticCode.FRONTMATTER_UNKNOWN_KEY, 4).message()).contains("'version'");
    assertThat(m.frontmatter()).containsKeys("version", "tools", "author");
    assertThat(diagnostics.hasErrors()).isFalse();
  }

  private Diagnostic at(DiagnosticCode code, int line) {
    return diagnostics.diagnostics().stream()
        .filter(d -> d.code() == code && d.line() == line)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void parse_unknownTopLevelKeyInStrictMode_isError() {
    diagnostics = new DiagnosticCollector(true, null);
    parseText("demo", "---\nname: demo\ndescription: d\ndcc: maya\n---\n");
    assertThat(only(DiagnosticCode.FRONTMATTER_UNKNOWN_KEY).severity()).isEqualTo(Severity.ERROR);
  }

  @Test
  void parse_missingName_usesDirectoryName() {
    SkillManifest m = parse(SkillFolder.named("from-dir").noName().writeTo(tmp)).orElseThrow();
    assertThat(m.name()).isEqualTo("from-dir");
    assertThat(only(DiagnosticCode.NAME_MISSING).severity()).isEqualTo(Severity.WARNING);
  }

  @Test
  void parse_nameDiffersFromDirectory_isMismatchWarning() {
    SkillManifest m = parse(SkillFolder.named("folder").name("other").writeTo(tmp)).orElseThrow();
    assertThat(m.name()).isEqualTo("other");
    assertThat(only(DiagnosticCode.NAME_MISMATCH).line()).isEqualTo(2);
  }

  @Test
  void parse_badNames_areInvalid() {
    for (String bad :
        List.of("Upper", "-lead", "trail-", "dou--ble", "under_score", "sp ace", "x".repeat(65))) {
      diagnostics = new DiagnosticCollector(false, null);
      parseText(
          "d" + Math.abs(bad.hashCode()), "---\nname: \"" + bad + "\"\ndescription: d\n---\n");
      assertThat(codes()).as(bad).contains(DiagnosticCode.NAME_INVALID);
    }
  }

  @Test
  void parse_nameOfSixtyFourChars_isValid() {
    String name = "a".repeat(64);
    parse(SkillFolder.named(name).writeTo(tmp));
    assertThat(codes()).isEmpty();
  }

  @Test
  void parse_numericName_isTypeError() {
    parseText("x", "---\nname: 42\ndescription: d\n---\n");
    assertThat(codes()).contains(DiagnosticCode.FIELD_TYPE_INVALID);
  }

  @Test
  void parse_missingOrBlankDescription_isError() {
    parse(SkillFolder.named("a").noDescription().writeTo(tmp));
    parse(SkillFolder.named("b").description("   ").writeTo(tmp));
    assertThat(codes())
        .containsExactly(DiagnosticCode.DESCRIPTION_MISSING, DiagnosticCode.DESCRIPTION_MISSING);
    assertThat(diagnostics.hasErrors()).isTrue();
  }

  @Test
  void parse_descriptionLength_countsCodePoints() {
    // 1024 emoji are 2048 UTF-16 units but 1024 characters: allowed.
    String emoji = "\uD83D\uDE00".repeat(1024);
    parse(SkillFolder.named("ok").description(emoji).writeTo(tmp));
    assertThat(codes()).isEmpty();
    parse(SkillFolder.named("long").description("\u4E2D".repeat(1025)).writeTo(tmp));
    assertThat(codes()).containsExactly(DiagnosticCode.DESCRIPTION_TOO_LONG);
  }

  @Test
  void parse_compatibilityLength_countsCodePoints() {
    parse(
        SkillFolder.named("ok")
            .frontmatterLine("compatibility: \"" + "\uD83D\uDE80".repeat(500) + "\"")
            .writeTo(tmp));
    assertThat(codes()).isEmpty();
    parse(
        SkillFolder.named("long")
            .frontmatterLine("compatibility: \"" + "a".repeat(501) + "\"")
            .writeTo(tmp));
    assertThat(codes()).containsExactly(DiagnosticCode.COMPATIBILITY_TOO_LONG);
  }

  @Test
  void parse_licenseList_isTypeError() {
    parse(SkillFolder.named("x").frontmatterLine("license: [MIT]").writeTo(tmp));
    assertThat(codes()).containsExactly(DiagnosticCode.FIELD_TYPE_INVALID);
  }

  @Test
  void parse_allowedToolsString_isSplitOnSpaces() {
    SkillManifest m =
        parse(
                SkillFolder.named("x")
                    .frontmatterLine("allowed-tools: Read  Write Bash(git:*)")
                    .writeTo(tmp))
            .orElseThrow();
    assertThat(m.allowedTools()).containsExactly("Read", "Write", "Bash(git:*)");
    assertThat(codes()).isEmpty();
  }

  @Test
  void parse_allowedToolsList_isAcceptedWithWarning() {
    SkillManifest m =
        parse(SkillFolder.named("x").frontmatterLine("allowed_tools: [Read, Write]").writeTo(tmp))
            .orElseThrow();
    assertThat(m.allowedTools()).containsExactly("Read", "Write");
    assertThat(codes()).containsExactly(DiagnosticCode.ALLOWED_TOOLS_LIST);
  }

  @Test
  void parse_metadataNotMapping_isError() {
    parse(SkillFolder.named("x").frontmatterLine("metadata: [a]").writeTo(tmp));
    assertThat(codes()).containsExactly(DiagnosticCode.METADATA_NOT_MAPPING);
  }

  @Test
  void parse_metadata_isKeptVerbatimWithNumbers() {
    SkillManifest m =
        parse(
                SkillFolder.named("x")
                    .frontmatterLine("metadata:")
                    .frontmatterLine("  author: me")
                    .frontmatterLine("  rating: 4.5")
                    .frontmatterLine("  count: 3")
                    .frontmatterLine("  nested: {list: [1, two, true, null]}")
                    .writeTo(tmp))
            .orElseThrow();
    assertThat(m.metadata().keySet()).containsExactly("author", "rating", "count", "nested");
    assertThat(m.metadata().get("rating")).isEqualTo(4.5);
    assertThat(m.metadata().get("count")).isEqualTo(3L);
    Map<?, ?> nested = (Map<?, ?>) m.metadata().get("nested");
    assertThat(nested.get("list")).isEqualTo(java.util.Arrays.asList(1L, "two", true, null));
    assertThat(m.frontmatter().get("metadata")).isEqualTo(m.metadata());
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_fiftyMegabyteFrontmatter_isTooLargeWithoutReadingAll() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("huge"));
    byte[] line =
        "k: vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\n"
            .getBytes(StandardCharsets.US_ASCII);
    byte[] chunk = new byte[line.length * 16_000];
    for (int i = 0; i < 16_000; i++) {
      System.arraycopy(line, 0, chunk, i * line.length, line.length);
    }
    try (var out = Files.newOutputStream(dir.resolve("SKILL.md"))) {
      out.write("---\n".getBytes(StandardCharsets.US_ASCII));
      for (long written = 0; written < 50L * 1024 * 1024; written += chunk.length) {
        out.write(chunk);
      }
      out.write("---\n".getBytes(StandardCharsets.US_ASCII));
    }
    SkillMdParser allowingLargeFiles = new SkillMdParser(YamlLimits.FRONTMATTER, 1L << 30);
    assertThat(parse(dir, allowingLargeFiles)).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_TOO_LARGE);
  }

  @Test
  void parse_fileOverTheFileLimit_isTooLargeWithoutBeingRead() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("sparse"));
    try (var file =
        java.nio.channels.FileChannel.open(
            dir.resolve("SKILL.md"),
            java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE,
            java.nio.file.StandardOpenOption.SPARSE)) {
      file.write(
          java.nio.ByteBuffer.wrap("---\nname: sparse\n".getBytes(StandardCharsets.US_ASCII)));
      // Two gigabytes that cost no disk: only the last byte is written.
      file.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}), (2L << 30) - 1);
    }

    assertThat(parse(dir)).isEmpty();

    assertThat(diagnostics.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SKILL_MD_TOO_LARGE);
              assertThat(d.message())
                  .contains(String.valueOf(2L << 30))
                  .contains(String.valueOf(SkillMdParser.DEFAULT_MAX_FILE_BYTES));
            });
  }

  @Test
  void parse_namedPipeAsSkillFile_isRefusedWithoutOpeningIt() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("fifo"));
    Path fifo = dir.resolve("SKILL.md");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

    assertThat(parse(dir)).isEmpty();

    assertThat(diagnostics.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SKILL_MD_UNREADABLE);
              assertThat(d.message()).contains("named pipe (FIFO)");
            });
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_singleHugeLine_isTooLarge() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("oneline"));
    Files.writeString(dir.resolve("SKILL.md"), "---\ndescription: " + "x".repeat(300_000));
    assertThat(parse(dir)).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_TOO_LARGE);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_aliasBomb_isAliasLimit() {
    StringBuilder fm =
        new StringBuilder("name: x\ndescription: d\nmetadata:\n  a: &a [lol, lol]\n");
    char prev = 'a';
    for (char c = 'b'; c <= 'j'; c++) {
      fm.append("  ").append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        fm.append(i == 0 ? "" : ", ").append('*').append(prev);
      }
      fm.append("]\n");
      prev = c;
    }
    assertThat(parse(SkillFolder.named("x").frontmatter(fm.toString()).writeTo(tmp))).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.YAML_ALIAS_LIMIT);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void parse_tenThousandDeepNesting_isDepthLimitOnItsLine() {
    String fm = "name: x\ndescription: d\nmetadata: " + "[".repeat(10_000) + "]".repeat(10_000);
    assertThat(parse(SkillFolder.named("x").frontmatter(fm).writeTo(tmp))).isEmpty();
    assertThat(only(DiagnosticCode.YAML_DEPTH_LIMIT).line()).isEqualTo(4);
  }

  @Test
  void parse_smallLimit_frontmatterTooLarge() {
    YamlLimits tiny = new YamlLimits(20, 50, 64, 1000);
    assertThat(parse(SkillFolder.named("x").writeTo(tmp), tiny)).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.FRONTMATTER_TOO_LARGE);
  }
}
