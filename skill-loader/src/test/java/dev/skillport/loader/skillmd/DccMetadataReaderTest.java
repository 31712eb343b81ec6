package dev.skillport.loader.skillmd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.testing.SkillFolder;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.InlineOrFile;
import dev.skillport.model.skill.Layer;
import dev.skillport.model.skill.SkillManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DccMetadataReaderTest {
  @TempDir Path tmp;

  private final DiagnosticCollector diagnostics = new DiagnosticCollector(false, null);

  private DccExtensions read(SkillFolder folder) {
    Path dir = folder.writeTo(tmp);
    SkillManifest m =
        new SkillMdParser(YamlLimits.FRONTMATTER)
            .parse(dir.resolve("SKILL.md"), dir, diagnostics)
            .orElseThrow();
    return m.extensions();
  }

  private DccExtensions readDcc(String... lines) {
    SkillFolder f = SkillFolder.named("s");
    for (String line : lines) {
      f.dccMcp(line);
    }
    return read(f);
  }

  private List<DiagnosticCode> codes() {
    return diagnostics.diagnostics().stream().map(Diagnostic::code).toList();
  }

  @Test
  void read_noMetadata_givesDefaults() {
    DccExtensions x = read(SkillFolder.named("s"));
    assertThat(x).isEqualTo(DccExtensions.NONE);
    assertThat(codes()).isEmpty();
  }

  @Test
  void read_everyDocumentedKey_isTyped() {
    DccExtensions x =
        readDcc(
            "dcc: maya",
            "version: 2.1.0",
            "tags: modeling, mesh",
            "search-hint: bevel chamfer",
            "search-aliases: [edges, corners]",
            "depends: [base-tools]",
            "products: maya, houdini",
            "allow-implicit-invocation: no",
            "layer: thin-harness",
            "tools: tools.yaml",
            "groups: groups.yaml",
            "prompts: prompts/*.prompt.yaml",
            "resources: resources/",
            "workflows: workflows/*.workflow.yaml, extra/*.workflow.yaml",
            "examples: examples/a.md",
            "recipes: [recipes/r.md]",
            "external-deps: {tools: [{type: bin, value: git}]}",
            "runtimes: runtimes.yaml",
            "mcp: mcp.yaml");
    assertThat(codes()).isEmpty();
    assertThat(x.dcc()).isEqualTo("maya");
    assertThat(x.version()).isEqualTo("2.1.0");
    assertThat(x.discovery().tags()).containsExactly("modeling", "mesh");
    assertThat(x.discovery().searchHint()).isEqualTo("bevel chamfer");
    assertThat(x.discovery().searchAliases()).containsExactly("edges", "corners");
    assertThat(x.depends()).containsExactly("base-tools");
    assertThat(x.discovery().products()).containsExactly("maya", "houdini");
    assertThat(x.discovery().allowImplicitInvocation()).isFalse();
    assertThat(x.discovery().layer()).isEqualTo(Layer.THIN_HARNESS);
    assertThat(x.siblings().tools()).isEqualTo("tools.yaml");
    assertThat(x.siblings().groups()).isEqualTo("groups.yaml");
    assertThat(x.siblings().prompts()).isEqualTo("prompts/*.prompt.yaml");
    assertThat(x.siblings().resources()).isEqualTo("resources/");
    assertThat(x.siblings().workflows())
        .containsExactly("workflows/*.workflow.yaml", "extra/*.workflow.yaml");
    assertThat(x.siblings().examples()).containsExactly("examples/a.md");
    assertThat(x.siblings().recipes()).containsExactly("recipes/r.md");
    assertThat(x.siblings().externalDeps()).isInstanceOf(InlineOrFile.Inline.class);
    assertThat(((InlineOrFile.Inline) x.siblings().externalDeps()).value().path("tools").isArray())
        .isTrue();
    assertThat(x.siblings().runtimes()).isEqualTo(new InlineOrFile.Text("runtimes.yaml"));
    assertThat(x.siblings().mcp()).isEqualTo("mcp.yaml");
    assertThat(x.extras()).isEmpty();
  }

  @Test
  void read_snakeCaseAndAliases_areAccepted() {
    DccExtensions x =
        readDcc(
            "search_hint: hint",
            "allow_implicit_invocation: \"0\"",
            "external_deps: deps.yaml",
            "aliases: a, b");
    assertThat(codes()).isEmpty();
    assertThat(x.discovery().searchHint()).isEqualTo("hint");
    assertThat(x.discovery().allowImplicitInvocation()).isFalse();
    assertThat(x.siblings().externalDeps()).isEqualTo(new InlineOrFile.Text("deps.yaml"));
    assertThat(x.discovery().searchAliases()).containsExactly("a", "b");
  }

  @Test
  void read_searchAliasesSnakeCase_isAccepted() {
    assertThat(readDcc("search_aliases: [x]").discovery().searchAliases()).containsExactly("x");
  }

  @Test
  void read_twoSpellings_usesKebabAndWarns() {
    DccExtensions x = readDcc("search_hint: snake", "search-hint: kebab");
    assertThat(x.discovery().searchHint()).isEqualTo("kebab");
    assertThat(codes()).containsExactly(DiagnosticCode.DCC_MCP_VALUE_INVALID);
  }

  @Test
  void read_booleanSpellings_allParse() {
    Object[][] cases = {
      {"true", true},
      {"false", false},
      {"yes", true},
      {"no", false},
      {"1", true},
      {"0", false},
      {"\"YES\"", true},
      {"'false'", false}
    };
    for (Object[] c : cases) {
      DccExtensions x =
          read(
              SkillFolder.named("b" + c[0].hashCode())
                  .dccMcp("allow-implicit-invocation: " + c[0]));
      assertThat(x.discovery().allowImplicitInvocation()).as(String.valueOf(c[0])).isEqualTo(c[1]);
    }
    assertThat(codes()).isEmpty();
  }

  @Test
  void read_badBoolean_warnsAndDefaultsTrue() {
    assertThat(readDcc("allow-implicit-invocation: maybe").discovery().allowImplicitInvocation())
        .isTrue();
    assertThat(codes()).containsExactly(DiagnosticCode.DCC_MCP_VALUE_INVALID);
  }

  @Test
  void read_numericVersion_isText() {
    assertThat(readDcc("version: 2").version()).isEqualTo("2");
  }

  @Test
  void read_floatVersion_isText() {
    assertThat(readDcc("version: 1.5").version()).isEqualTo("1.5");
  }

  @Test
  void read_badLayer_warnsAndUsesDomain() {
    DccExtensions x = readDcc("layer: core");
    assertThat(x.discovery().layer()).isEqualTo(Layer.DOMAIN);
    Diagnostic d = diagnostics.diagnostics().get(0);
    assertThat(d.code()).isEqualTo(DiagnosticCode.DCC_MCP_VALUE_INVALID);
    assertThat(d.message()).contains("core");
    assertThat(d.line()).isEqualTo(6);
  }

  @Test
  void read_tagsAsMapping_warns() {
    assertThat(readDcc("tags: {a: b}").discovery().tags()).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.DCC_MCP_VALUE_INVALID);
  }

  @Test
  void read_csvWithBlanksAndDuplicates_isCleaned() {
    assertThat(readDcc("tags: ' a ,, b , a ,'").discovery().tags()).containsExactly("a", "b");
  }

  @Test
  void read_unknownKey_isNoticeAndKeptInExtras() {
    DccExtensions x = readDcc("frobnicate: 3", "stage: beta", "branding: {color: red}");
    assertThat(codes()).containsExactly(DiagnosticCode.DCC_MCP_UNKNOWN_KEY);
    assertThat(x.extras()).containsEntry("frobnicate", 3L).containsEntry("stage", "beta");
    assertThat(x.extras().get("branding")).isEqualTo(Map.of("color", "red"));
  }

  @Test
  void read_displayOnlyKeys_areKeptWithoutNotice() {
    DccExtensions x =
        readDcc("links: [https://example.invalid]", "example-prompts: [do it]", "stage: alpha");
    assertThat(codes()).isEmpty();
    assertThat(x.extras()).containsOnlyKeys("links", "example-prompts", "stage");
  }

  @Test
  void read_dccMcpNotMapping_isError() {
    read(
        SkillFolder.named("s")
            .frontmatterLine("metadata:")
            .frontmatterLine("  dcc-mcp: tools.yaml"));
    assertThat(codes()).containsExactly(DiagnosticCode.DCC_MCP_NOT_MAPPING);
    assertThat(diagnostics.hasErrors()).isTrue();
  }

  @Test
  void read_legacyFlatForm_isHonouredWithWarning() {
    DccExtensions x =
        read(
            SkillFolder.named("s")
                .frontmatterLine("metadata:")
                .frontmatterLine("  dcc-mcp.tools: tools.yaml")
                .frontmatterLine("  dcc-mcp.dcc: blender")
                .frontmatterLine("  author: me"));
    assertThat(x.siblings().tools()).isEqualTo("tools.yaml");
    assertThat(x.dcc()).isEqualTo("blender");
    assertThat(codes()).containsExactly(DiagnosticCode.METADATA_LEGACY_FLAT);
  }

  @Test
  void read_legacyAndNested_nestedWins() {
    DccExtensions x =
        read(
            SkillFolder.named("s")
                .frontmatterLine("metadata:")
                .frontmatterLine("  dcc-mcp.tools: old.yaml")
                .frontmatterLine("  dcc-mcp.tags: legacy")
                .frontmatterLine("  dcc-mcp:")
                .frontmatterLine("    tools: new.yaml"));
    assertThat(x.siblings().tools()).isEqualTo("new.yaml");
    assertThat(x.discovery().tags()).containsExactly("legacy");
    assertThat(codes()).containsExactly(DiagnosticCode.METADATA_LEGACY_FLAT);
  }

  @Test
  void read_dependsFile_isMergedWithMetadata() {
    DccExtensions x =
        read(
            SkillFolder.named("s")
                .depends("alpha", "beta")
                .file(
                    "metadata/depends.md",
                    "# Dependencies\n\n- beta\n* gamma\ndelta\n<!-- note -->\n   \n"));
    assertThat(x.depends()).containsExactly("alpha", "beta", "gamma", "delta");
    assertThat(codes()).isEmpty();
  }

  @Test
  void read_dependsFileWithoutMetadata_isRead() {
    DccExtensions x = read(SkillFolder.named("s").file("metadata/depends.md", "- only\r\n"));
    assertThat(x.depends()).containsExactly("only");
  }

  @Test
  void read_dependsFileLinkingOutside_isEscapeError() throws IOException {
    Path outside = Files.writeString(tmp.resolve("outside.md"), "- x\n");
    Path dir = SkillFolder.named("s").writeTo(tmp);
    Files.createDirectories(dir.resolve("metadata"));
    Files.createSymbolicLink(dir.resolve("metadata/depends.md"), outside);
    SkillManifest m =
        new SkillMdParser(YamlLimits.FRONTMATTER)
            .parse(dir.resolve("SKILL.md"), dir, diagnostics)
            .orElseThrow();
    assertThat(m.extensions().depends()).isEmpty();
    assertThat(codes()).containsExactly(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  void dependsLines_stripsBulletsAndComments() {
    assertThat(DccMetadataReader.dependsLines("- a\n#b\n+ c\n\n  d  \n- a\n"))
        .containsExactly("a", "c", "d");
  }
}
