package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/** Keeps the README's reference and examples equal to what the code does. */
class ReadmeTest {
  private static final Path REPO = Path.of(System.getProperty("skillport.repo", "..")).normalize();
  private static MarkdownPage page;
  private static String readme;

  @BeforeAll
  static void read() {
    page = MarkdownPage.read(REPO.resolve("README.md"));
    readme = page.text();
  }

  private static List<MarkdownPage.Block> blocks() {
    return page.blocks();
  }

  /** The README row for a code: default severity, severity under --strict, summary. */
  private static String row(DiagnosticCode code) {
    Severity strict = code.raisedByStrict() ? Severity.ERROR : code.defaultSeverity();
    return "| `%s` | %s | %s | %s |"
        .formatted(
            code.name(),
            code.defaultSeverity().label(),
            strict.label(),
            code.summary().replace("|", "\\|"));
  }

  @Test
  void diagnosticCodes_everyCodeHasItsExactRow() {
    List<String> lines = readme.lines().toList();
    List<String> missing =
        Arrays.stream(DiagnosticCode.values())
            .map(ReadmeTest::row)
            .filter(row -> !lines.contains(row))
            .toList();

    assertThat(missing).as("rows to put in the README's diagnostic code table").isEmpty();
  }

  @Test
  void diagnosticCodes_tableNamesNoCodeThatDoesNotExist() {
    Matcher m =
        Pattern.compile("(?m)^\\| `([A-Z_]+)` \\| (?:error|warning|notice) \\|").matcher(readme);
    List<String> named = new ArrayList<>();
    while (m.find()) {
      named.add(m.group(1));
    }
    assertThat(named)
        .isNotEmpty()
        .allSatisfy(
            n -> assertThat(Arrays.stream(DiagnosticCode.values()).map(Enum::name)).contains(n))
        .doesNotHaveDuplicates();
  }

  @Test
  void toolFailureCodes_everyCodeHasItsExactRow() {
    List<String> lines = readme.lines().toList();
    List<String> missing =
        Arrays.stream(ToolFailureCode.values())
            .map(c -> "| `%s` | %s |".formatted(c.name(), c.summary().replace("|", "\\|")))
            .filter(row -> !lines.contains(row))
            .toList();

    assertThat(missing).as("rows to put in the README's tool failure code table").isEmpty();
  }

  @Test
  void toolFailureCodes_tableNamesNoCodeThatDoesNotExist() {
    String section =
        readme.substring(
            readme.indexOf("### Tool failure codes"),
            readme.indexOf("\n### ", readme.indexOf("### Tool failure codes")));
    Matcher m = Pattern.compile("(?m)^\\| `([A-Z_]+)` \\|").matcher(section);
    List<String> named = new ArrayList<>();
    while (m.find()) {
      named.add(m.group(1));
    }
    assertThat(named)
        .hasSize(ToolFailureCode.values().length)
        .allSatisfy(
            n -> assertThat(Arrays.stream(ToolFailureCode.values()).map(Enum::name)).contains(n))
        .doesNotHaveDuplicates();
  }

  @Test
  void exitCodes_tableMatchesTheValidateHelp() {
    String[] declared = ValidateCommand.class.getAnnotation(Command.class).exitCodeList();

    for (String entry : declared) {
      String[] parts = entry.split(":", 2);
      assertThat(readme).contains("| `" + parts[0] + "` | " + parts[1] + " |");
    }
  }

  @Test
  void examples_everyCommandBlockPrintsExactlyItsOutput() {
    List<MarkdownPage.Block> examples =
        blocks().stream().filter(MarkdownPage.Block::isTranscript).toList();

    assertThat(examples).hasSizeGreaterThanOrEqualTo(2);
    for (MarkdownPage.Block example : examples) {
      Transcripts.assertPrintsItsOutput(REPO, example, "README.md:" + example.line());
    }
  }

  @Test
  void jsonShape_exampleEqualsRealOutput() throws Exception {
    MarkdownPage.Block json =
        blocks().stream().filter(b -> b.language().equals("json")).findFirst().orElseThrow();
    CliRun run =
        CliRun.execute(REPO, "validate", "--format", "json", "samples/invalid/legacy-frontmatter");

    ObjectMapper mapper = new ObjectMapper();
    assertThat(mapper.readTree(json.body())).isEqualTo(mapper.readTree(run.out()));
  }

  @Test
  void firstScreen_namesTheTwoCommands() throws Exception {
    String firstScreen = readme.substring(0, readme.indexOf("## "));

    assertThat(firstScreen)
        .contains("mvn -B -q -DskipTests package && bin/skillport")
        .contains("mvn -B verify");
    assertThat(Files.readString(REPO.resolve(".ci/run"), StandardCharsets.UTF_8))
        .contains("mvn -B verify");
  }

  @Test
  void pythonExample_isTheScriptTheInteropTestRuns() throws Exception {
    MarkdownPage.Block python =
        blocks().stream()
            .filter(b -> b.language().equals("python") && b.body().contains("dcc_mcp_core"))
            .findFirst()
            .orElseThrow();
    String script =
        Files.readString(
            REPO.resolve(
                "cli/src/test/resources/upstream-style/scene-primitives/scripts/create_sphere.py"),
            StandardCharsets.UTF_8);

    assertThat(python.body().strip()).isEqualTo(script.strip());
  }

  @Test
  void askExample_isTheScriptTheInteropTestsRun() throws Exception {
    MarkdownPage.Block python =
        blocks().stream()
            .filter(b -> b.language().equals("python") && b.body().contains("::ask"))
            .findFirst()
            .orElseThrow();
    String script =
        Files.readString(
            REPO.resolve("cli/src/test/resources/flow-kit/ask_name.py"), StandardCharsets.UTF_8);

    assertThat(python.body().strip()).isEqualTo(script.strip());
  }
}
