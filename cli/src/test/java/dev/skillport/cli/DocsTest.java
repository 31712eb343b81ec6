package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.mcp.Era;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.jobs.JobStatus;
import dev.skillport.server.metrics.ServerMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Keeps the guide in {@code docs/} equal to the code: every example there is a file of the build, a
 * transcript that runs, or a table checked against the model it describes (picocli's commands,
 * {@link DiagnosticCode}, the root pom's modules). Run with {@code -Dskillport.docs.update=true} to
 * rewrite the generated part of {@code docs/diagnostics.md}.
 */
class DocsTest {
  private static final Path REPO = Path.of(System.getProperty("skillport.repo", "..")).normalize();
  private static final Path DOCS = REPO.resolve("docs");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Rewrites the generated parts of the pages (transcripts' output, the diagnostics reference). */
  private static final boolean UPDATE = Boolean.getBoolean("skillport.docs.update");

  /** Where the host configuration snippets put the repository. */
  static final String CHECKOUT = "/path/to/skillport";

  /** The guide's pages, each one linked from the index. */
  private static final List<String> PAGES =
      List.of(
          "getting-started.md",
          "writing-skills.md",
          "diagnostics.md",
          "running.md",
          "host-adapters.md",
          "architecture.md",
          "blender.md",
          "rest.md");

  private static List<MarkdownPage> guide() {
    return PAGES.stream().map(p -> MarkdownPage.read(DOCS.resolve(p))).toList();
  }

  private static List<Path> markdownFiles() {
    try (Stream<Path> files = Files.walk(DOCS)) {
      List<Path> all =
          new ArrayList<>(files.filter(p -> p.toString().endsWith(".md")).sorted().toList());
      all.add(REPO.resolve("README.md"));
      return all;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String where(MarkdownPage page, MarkdownPage.Block block) {
    return REPO.relativize(page.file()) + ":" + block.line();
  }

  @Test
  void index_linksEveryPage() {
    MarkdownPage index = MarkdownPage.read(DOCS.resolve("README.md"));
    assertThat(index.relativeLinks()).containsAll(PAGES);
  }

  @Test
  void links_everyRelativeLinkAndAnchorResolves() {
    List<String> dead = new ArrayList<>();
    for (Path file : markdownFiles()) {
      MarkdownPage page = MarkdownPage.read(file);
      for (String link : page.relativeLinks()) {
        String path = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
        String anchor = link.contains("#") ? link.substring(link.indexOf('#') + 1) : null;
        Path target = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        if (!target.startsWith(REPO) || !Files.exists(target)) {
          dead.add(REPO.relativize(file) + ": " + link);
        } else if (anchor != null
            && target.toString().endsWith(".md")
            && !MarkdownPage.read(target).anchors().contains(anchor)) {
          dead.add(REPO.relativize(file) + ": " + link + " (no such heading)");
        }
      }
    }
    assertThat(dead).as("dead relative links").isEmpty();
  }

  @Test
  void transcripts_everyCommandPrintsExactlyItsOutput() throws IOException {
    int run = 0;
    for (MarkdownPage page : guide()) {
      if (UPDATE) {
        String text = page.text();
        for (MarkdownPage.Block block : page.blocks()) {
          if (block.isTranscript()) {
            text =
                text.replace(
                    "```\n" + block.body() + "```",
                    "```\n" + Transcripts.actual(REPO, block) + "```");
          }
        }
        Files.writeString(page.file(), text, StandardCharsets.UTF_8);
        page = MarkdownPage.read(page.file());
      }
      for (MarkdownPage.Block block : page.blocks()) {
        if (block.isTranscript()) {
          Transcripts.assertPrintsItsOutput(REPO, block, where(page, block));
          run++;
        }
      }
    }
    assertThat(run).as("transcripts in the guide").isGreaterThanOrEqualTo(3);
  }

  /**
   * A block noted {@code <!-- file: PATH -->} is that file; {@code PATH#NAME} is the region between
   * the lines holding {@code docs:begin NAME} and {@code docs:end NAME}, indentation removed.
   */
  @Test
  void files_everyExampleIsTheFileItNames() throws IOException {
    int checked = 0;
    for (MarkdownPage page : guide()) {
      for (MarkdownPage.Block block : page.blocksNoted("file:")) {
        String ref = block.note().substring("file:".length()).strip();
        assertThat(block.body().strip())
            .as("%s is %s", where(page, block), ref)
            .isEqualTo(excerpt(ref).strip());
        checked++;
      }
    }
    assertThat(checked).as("examples taken from files").isGreaterThanOrEqualTo(10);
  }

  /**
   * The environment naming the plugin folder the build made ({@code samples/target/plugins}). The
   * examples' Java handlers come from SDK and plugin jars that {@code validate} does not start;
   * with plugin jars waiting it leaves that check to {@code serve} (decision 0044) and checks
   * everything else.
   */
  private static Map<String, String> builtPlugins() {
    try (Stream<Path> dirs = Files.list(REPO.resolve("samples"))) {
      Path folder =
          dirs.filter(d -> d.getFileName().toString().startsWith("target"))
              .map(d -> d.resolve("plugins"))
              .filter(Files::isDirectory)
              .findFirst()
              .orElseThrow(() -> new AssertionError("the build made no samples/target/plugins"));
      return Map.of("SKILLPORT_PLUGINS", folder.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every skill a page takes an example from passes {@code validate --strict} with nothing said.
   */
  @Test
  void files_everySkillAnExampleComesFromIsStrictlyClean() {
    Set<Path> skills = new TreeSet<>();
    for (MarkdownPage page : guide()) {
      for (MarkdownPage.Block block : page.blocksNoted("file:")) {
        String ref = block.note().substring("file:".length()).strip().split("#")[0];
        if (ref.contains("/src/test/")) {
          continue;
        }
        for (Path dir = REPO.resolve(ref).getParent();
            dir.startsWith(REPO);
            dir = dir.getParent()) {
          if (Files.isRegularFile(dir.resolve("SKILL.md"))) {
            skills.add(dir);
            break;
          }
        }
      }
    }
    assertThat(skills).isNotEmpty();
    for (Path skill : skills) {
      CliRun run =
          CliRun.execute(
              REPO,
              builtPlugins(),
              "validate",
              "--strict",
              REPO.relativize(skill.getParent()).toString());
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      assertThat(run.out())
          .as(skill.toString())
          .contains("PASS " + skill.getFileName() + " ")
          .contains("0 with warnings, 0 failed; 0 errors, 0 warnings, 0 notices");
    }
  }

  /**
   * A block noted {@code <!-- tree: FOLDER -->} draws that folder: the names it shows are exactly
   * the files and folders in it (each line's name after the tree drawing, before any comment).
   */
  @Test
  void files_everyFolderTreeShowsTheFolder() throws IOException {
    int checked = 0;
    for (MarkdownPage page : guide()) {
      for (MarkdownPage.Block block : page.blocksNoted("tree:")) {
        Path folder = REPO.resolve(block.note().substring("tree:".length()).strip());
        Set<String> shown = new TreeSet<>();
        for (String line : block.body().split("\n")) {
          String name = line.replaceFirst("^[│├└─\\s]+", "").split("\\s+")[0];
          if (!name.isEmpty()) {
            shown.add(name.replaceFirst("/$", ""));
          }
        }
        shown.remove(folder.getFileName().toString());
        Set<String> present = new TreeSet<>();
        try (Stream<Path> files = Files.walk(folder)) {
          files
              .filter(p -> !p.equals(folder))
              .forEach(p -> present.add(p.getFileName().toString()));
        }
        assertThat(shown).as(where(page, block)).isEqualTo(present);
        checked++;
      }
    }
    assertThat(checked).isPositive();
  }

  static String excerpt(String ref) {
    String[] parts = ref.split("#", 2);
    String text;
    try {
      text = Files.readString(REPO.resolve(parts[0]), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("the example's file " + parts[0] + " cannot be read", e);
    }
    if (parts.length == 1) {
      return text;
    }
    List<String> region = new ArrayList<>();
    boolean in = false;
    for (String line : text.split("\n", -1)) {
      if (line.contains("docs:end " + parts[1])) {
        in = false;
      } else if (in) {
        region.add(line);
      } else if (line.contains("docs:begin " + parts[1])) {
        in = true;
      }
    }
    assertThat(region).as("region %s in %s", parts[1], parts[0]).isNotEmpty();
    int indent =
        region.stream()
            .filter(l -> !l.isBlank())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    return region.stream()
        .map(l -> l.length() >= indent ? l.substring(indent) : l.strip())
        .collect(Collectors.joining("\n"));
  }

  // --- diagnostics reference -------------------------------------------------------------------

  /** Where each group of codes starts, in the enum's order. */
  private static final Map<DiagnosticCode, String> GROUPS = new LinkedHashMap<>();

  static {
    GROUPS.put(DiagnosticCode.ROOT_NOT_DIRECTORY, "Discovery and roots");
    GROUPS.put(DiagnosticCode.FRONTMATTER_MISSING, "SKILL.md frontmatter");
    GROUPS.put(DiagnosticCode.DCC_MCP_NOT_MAPPING, "metadata.dcc-mcp");
    GROUPS.put(DiagnosticCode.SIBLING_MISSING, "Sibling files");
    GROUPS.put(DiagnosticCode.TOOL_ENTRY_INVALID, "Tools and groups");
    GROUPS.put(DiagnosticCode.PROMPT_INVALID, "Prompts, resources, workflows");
    GROUPS.put(DiagnosticCode.EXTERNAL_DEPS_INVALID, "External requirements and bridges");
    GROUPS.put(DiagnosticCode.DEPENDENCY_MISSING, "Across skills");
    GROUPS.put(DiagnosticCode.SKILL_DENIED, "The operator's allow and deny lists");
    GROUPS.put(DiagnosticCode.LOADER_INTERNAL_ERROR, "The loader itself");
    GROUPS.put(DiagnosticCode.PLUGIN_INVALID, "Host-adapter plugins");
  }

  /** The reference part of {@code docs/diagnostics.md}, made from {@link DiagnosticCode}. */
  static String diagnosticsReference() {
    StringBuilder out = new StringBuilder();
    for (DiagnosticCode code : DiagnosticCode.values()) {
      String group = GROUPS.get(code);
      if (group != null) {
        out.append("\n## ").append(group).append('\n');
      }
      Severity strict = code.raisedByStrict() ? Severity.ERROR : code.defaultSeverity();
      out.append("\n### ").append(code.name()).append("\n\n");
      out.append("Severity: **")
          .append(code.defaultSeverity().label())
          .append("**")
          .append(
              strict == code.defaultSeverity()
                  ? ", also under `--strict`."
                  : " (**" + strict.label() + "** under `--strict`).")
          .append("\n\n");
      out.append("Means: ").append(sentence(code.summary())).append("\n\n");
      out.append("Fix: ").append(sentence(code.hint())).append('\n');
    }
    return out.toString();
  }

  private static String sentence(String s) {
    return s.endsWith(".") ? s : s + ".";
  }

  @Test
  void diagnostics_pageIsGeneratedFromDiagnosticCode() throws IOException {
    assertGenerated("DiagnosticCode", diagnosticsReference());
  }

  /** Where each group of tool failure codes starts, in the enum's order. */
  private static final Map<ToolFailureCode, String> FAILURE_GROUPS = new LinkedHashMap<>();

  static {
    FAILURE_GROUPS.put(ToolFailureCode.INVALID_ARGUMENTS, "Arguments and names");
    FAILURE_GROUPS.put(ToolFailureCode.NO_HANDLER, "Handlers and results");
    FAILURE_GROUPS.put(ToolFailureCode.NO_INTERPRETER, "Scripts");
    FAILURE_GROUPS.put(ToolFailureCode.HOST_ADAPTER_MISSING, "Host programs");
    FAILURE_GROUPS.put(ToolFailureCode.MCP_BRIDGE_UNTRUSTED, "Bridged MCP servers");
    FAILURE_GROUPS.put(ToolFailureCode.JOB_NOT_FOUND, "Jobs");
    FAILURE_GROUPS.put(ToolFailureCode.WORKFLOW_INVALID, "Workflows");
  }

  /** The table of tool failure codes in {@code docs/diagnostics.md}, made from the enum. */
  static String failureReference() {
    StringBuilder out = new StringBuilder("\n| code | meaning |\n|---|---|\n");
    for (ToolFailureCode code : ToolFailureCode.values()) {
      String group = FAILURE_GROUPS.get(code);
      if (group != null) {
        out.append("| **").append(group).append("** | |\n");
      }
      out.append("| `")
          .append(code.name())
          .append("` | ")
          .append(code.summary().replace("|", "\\|"))
          .append(" |\n");
    }
    return out.toString();
  }

  @Test
  void diagnostics_toolFailureTableIsGeneratedFromToolFailureCode() throws IOException {
    assertGenerated("ToolFailureCode", failureReference());
  }

  /**
   * The part of {@code docs/diagnostics.md} between {@code <!-- generated from SOURCE: begin -->}
   * and its end marker is {@code expected}; with {@code -Dskillport.docs.update=true} it is
   * rewritten first.
   */
  private static void assertGenerated(String source, String expected) throws IOException {
    Path file = DOCS.resolve("diagnostics.md");
    String begin = "<!-- generated from " + source + ": begin -->";
    String end = "<!-- generated from " + source + ": end -->";
    String text = Files.readString(file, StandardCharsets.UTF_8);
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    assertThat(from).as("%s in docs/diagnostics.md", begin).isNotNegative();
    assertThat(to).as("%s in docs/diagnostics.md", end).isGreaterThan(from);
    String actual = text.substring(from + begin.length(), to);
    if (UPDATE && !actual.equals(expected + "\n")) {
      text = text.substring(0, from + begin.length()) + expected + "\n" + text.substring(to);
      Files.writeString(file, text, StandardCharsets.UTF_8);
      actual = expected + "\n";
    }
    assertThat(actual)
        .as(
            "docs/diagnostics.md differs from %s; run the server module's DocsTest with"
                + " -Dskillport.docs.update=true to regenerate it",
            source)
        .isEqualTo(expected + "\n");
  }

  // --- command-line reference ------------------------------------------------------------------

  private static CommandLine commandLine() {
    return SkillportCommand.commandLine(
        new CliOutput(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
        new CliEnvironment(REPO, null, false, Map.of(), CliEnvironment.DEFAULT_PROGRESS_DELAY));
  }

  /** How a page writes an option in a table's first cell: names and, for a value, its label. */
  private static String usage(OptionSpec option) {
    String names = String.join(", ", option.names());
    return option.typeInfo().isBoolean() ? names : names + " " + option.paramLabel();
  }

  /**
   * Every command that does something (a leaf of picocli's command tree, {@code help} left out) by
   * its full name, e.g. {@code new skill}.
   */
  private static Map<String, CommandSpec> leafCommands(CommandLine command, String prefix) {
    Map<String, CommandSpec> leaves = new LinkedHashMap<>();
    for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
      if (sub.getKey().equals("help")) {
        continue;
      }
      String name = (prefix + " " + sub.getKey()).strip();
      if (sub.getValue().getSubcommands().isEmpty()) {
        leaves.put(name, sub.getValue().getCommandSpec());
      } else {
        leaves.putAll(leafCommands(sub.getValue(), name));
      }
    }
    return leaves;
  }

  /**
   * Every command has a section {@code ### <command>} in {@code docs/running.md} and, when it has
   * options, a table whose first header is {@code <command> option}, one row per option, in
   * picocli's order: the usage cell is exact, and a default value is stated as {@code default
   * VALUE}.
   */
  @Test
  void flags_everyCommandsTableIsPicoclisModel() {
    MarkdownPage running = MarkdownPage.read(DOCS.resolve("running.md"));
    Map<String, CommandSpec> commands = leafCommands(commandLine(), "");
    assertThat(commands).containsKeys("serve", "validate", "list", "new skill");
    // Options every command inherits from the root are tabulated once.
    assertThat(running.requireTable("every command's option").stream().map(r -> r.get(0)))
        .containsExactlyElementsOf(
            commandLine().getCommandSpec().options().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp())
                .map(o -> "`" + usage(o) + "`")
                .toList());
    for (Map.Entry<String, CommandSpec> command : commands.entrySet()) {
      assertThat(running.text())
          .as("docs/running.md needs a section '### %s' for that command", command.getKey())
          .contains("\n### " + command.getKey() + "\n");
      List<OptionSpec> documentedOptions =
          command.getValue().options().stream()
              // A hidden option is a removed one that answers with an error, not documented.
              .filter(o -> !o.usageHelp() && !o.versionHelp() && !o.inherited() && !o.hidden())
              .toList();
      if (documentedOptions.isEmpty()) {
        assertThat(running.table(command.getKey() + " option"))
            .as("docs/running.md: '%s' has no options to tabulate", command.getKey())
            .isEmpty();
        continue;
      }
      List<List<String>> rows = running.requireTable(command.getKey() + " option");
      List<OptionSpec> options = documentedOptions;
      assertThat(rows.stream().map(r -> r.get(0)).toList())
          .as(
              "docs/running.md's '%s option' table must list the command's options in picocli's"
                  + " order, as `--name LABEL`",
              command.getKey())
          .containsExactlyElementsOf(options.stream().map(o -> "`" + usage(o) + "`").toList());
      for (int i = 0; i < options.size(); i++) {
        OptionSpec option = options.get(i);
        String value = option.defaultValue();
        if (value != null && !option.typeInfo().isBoolean()) {
          assertThat(rows.get(i).get(1))
              .as("the row of %s states its default", option.longestName())
              .contains("default `" + value + "`");
        }
      }
    }
  }

  /** Splits a shell line into words the way a POSIX shell does for simple quoting. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /**
   * Every {@code bin/skillport ...} command line shown in a shell block (of the guide and the
   * README) parses with the real command line: a renamed or removed flag fails here.
   */
  @Test
  void commands_everyCommandLineShownParses() {
    int parsed = 0;
    for (Path file : markdownFiles()) {
      MarkdownPage page = MarkdownPage.read(file);
      for (MarkdownPage.Block block : page.blocks()) {
        if (!List.of("", "sh", "shell", "bash").contains(block.language())) {
          continue;
        }
        for (String line : block.body().split("\n")) {
          for (String command : line.replaceFirst("^\\$ ", "").split("&&")) {
            List<String> words = words(command.strip());
            if (words.isEmpty() || !words.get(0).equals("bin/skillport")) {
              continue;
            }
            String[] args = words.subList(1, words.size()).toArray(String[]::new);
            try {
              commandLine().parseArgs(args);
            } catch (CommandLine.ParameterException e) {
              throw new AssertionError(where(page, block) + ": " + command.strip(), e);
            }
            parsed++;
          }
        }
      }
    }
    assertThat(parsed).as("command lines shown").isGreaterThanOrEqualTo(10);
  }

  /**
   * The other commands the guide shows name what exists: {@code cp MODULE/target/ARTIFACT-*.jar}
   * copies a jar a module of the build makes, and {@code node interop/interop.mjs smoke@N ...} uses
   * options the smoke client reads.
   */
  @Test
  void commands_jarsAndInteropOptionsShownExist() throws IOException {
    Pattern jar = Pattern.compile("\\bcp (\\S+)/target/([\\w.-]+)-\\*\\.jar");
    String smokeClient =
        Files.readString(REPO.resolve("interop/smoke-client.mjs"), StandardCharsets.UTF_8);
    int checked = 0;
    for (MarkdownPage page : guide()) {
      for (MarkdownPage.Block block : page.blocks()) {
        Matcher m = jar.matcher(block.body());
        while (m.find()) {
          Path pom = REPO.resolve(m.group(1)).resolve("pom.xml");
          assertThat(pom).as(where(page, block)).isRegularFile();
          assertThat(child(pom(pom).getDocumentElement(), "artifactId"))
              .as("%s: the jar of %s", where(page, block), m.group(1))
              .isEqualTo(m.group(2));
          checked++;
        }
        for (String line : block.body().split("\\n")) {
          List<String> words = words(line.replaceFirst("^\\$ ", ""));
          if (words.size() > 2 && words.get(1).equals("interop/interop.mjs")) {
            assertThat(words.get(2)).as(where(page, block)).matches("smoke@[12]");
            for (String word : words.subList(3, words.size())) {
              if (word.startsWith("--")) {
                assertThat(smokeClient).as(where(page, block)).contains("case '" + word + "'");
              }
            }
            checked++;
          }
        }
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(3);
  }

  private static final Pattern PYTHON_CLASS = Pattern.compile("(?m)^class (\\w+)");

  /**
   * Every class ({@code `CoreTools`}) and package ({@code `loader.discovery`}, {@code
   * `server.app.CatalogReloader`}, {@code `dev.skillport.model.skill`}) the guide names in code
   * spans exists in the sources (the bundled Python package's classes included), so a moved or
   * renamed one fails here.
   */
  @Test
  void code_everyClassAndPackageNamedExists() throws IOException {
    Set<String> classes = new TreeSet<>();
    Set<String> paths = new TreeSet<>();
    Pattern source = Pattern.compile(".*/src/(?:main|test)/java/(.+)\\.java$");
    try (Stream<Path> files = Files.walk(REPO)) {
      for (Path file : files.filter(p -> !p.toString().contains("/target/")).toList()) {
        String name = file.toString().replace('\\', '/');
        if (name.contains("/dcc_mcp_core/") && name.endsWith(".py")) {
          // The bundled Python package's classes are named in the script guides too.
          Matcher py = PYTHON_CLASS.matcher(Files.readString(file));
          while (py.find()) {
            classes.add(py.group(1));
          }
        }
        Matcher m = source.matcher(name);
        if (m.matches()) {
          String path = m.group(1);
          classes.add(path.substring(path.lastIndexOf('/') + 1));
          paths.add(path);
          for (int at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
            paths.add(path.substring(0, at));
          }
        }
      }
    }
    Pattern span =
        Pattern.compile(
            "`([A-Z][A-Z0-9]*[a-z][A-Za-z0-9]*|[a-z]+(?:\\.[a-z]+)+(?:\\.[A-Z]\\w+)?)`");
    List<String> missing = new ArrayList<>();
    int checked = 0;
    for (MarkdownPage page : guide()) {
      Matcher m = span.matcher(page.prose());
      while (m.find()) {
        String name = m.group(1);
        if (name.startsWith("sys.")
            || name.matches(
                ".*\\.(xml|yaml|yml|md|py|json|txt|jar|sh|mjs|js|exe|blend|png|wav|csv|html)$")) {
          continue;
        }
        boolean found;
        if (!name.contains(".")) {
          found = classes.contains(name);
        } else {
          String path = name.replace('.', '/');
          found =
              paths.contains(path)
                  || paths.contains("dev/skillport/" + path)
                  || paths.contains("dev/skillport/api/" + path);
        }
        if (!found) {
          missing.add(REPO.relativize(page.file()) + ": " + name);
        }
        checked++;
      }
    }
    assertThat(missing).as("classes and packages the guide names that the sources lack").isEmpty();
    assertThat(checked).isGreaterThanOrEqualTo(20);
  }

  /**
   * Every {@code SKILLPORT_*} variable and {@code skillport_*} metric the guide names occurs in the
   * code, its tests or the launcher.
   */
  @Test
  void environment_everyVariableNamedIsReadByTheCode() throws IOException {
    Set<String> named = new TreeSet<>();
    Pattern variable = Pattern.compile("\\bSKILLPORT_[A-Z_]*[A-Z]\\b|\\bskillport_[a-z_]*[a-z]\\b");
    for (MarkdownPage page : guide()) {
      Matcher m = variable.matcher(page.text());
      while (m.find()) {
        named.add(m.group());
      }
    }
    StringBuilder code = new StringBuilder(Files.readString(REPO.resolve("bin/skillport")));
    try (Stream<Path> files = Files.walk(REPO)) {
      for (Path source :
          files
              .filter(p -> p.toString().contains("/src/"))
              .filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".py"))
              .filter(p -> !p.toString().contains("/target/"))
              .toList()) {
        code.append(Files.readString(source, StandardCharsets.UTF_8));
      }
    }
    code.append(Files.readString(REPO.resolve("interop/interop.mjs"), StandardCharsets.UTF_8));
    assertThat(named).isNotEmpty();
    assertThat(named.stream().filter(v -> !code.toString().contains(v)).toList())
        .as("variables and metric names the guide names that no code has")
        .isEmpty();
  }

  /** The architecture page links every decision record, so a new record cannot go unlisted. */
  @Test
  void architecture_linksEveryDecisionRecord() throws IOException {
    List<String> links = MarkdownPage.read(DOCS.resolve("architecture.md")).relativeLinks();
    try (Stream<Path> records = Files.list(DOCS.resolve("decisions"))) {
      assertThat(links)
          .as("docs/architecture.md's decision record table must link every record")
          .containsAll(
              records
                  .map(p -> "decisions/" + p.getFileName())
                  .filter(p -> p.endsWith(".md"))
                  .sorted()
                  .toList());
    }
  }

  // --- host configuration snippets ------------------------------------------------------------

  /** A server entry of a host's configuration snippet. */
  record HostEntry(String where, JsonNode entry) {}

  /** The server entries of every JSON block of getting-started.md noted {@code host-config:}. */
  static List<HostEntry> hostEntries() {
    MarkdownPage page = MarkdownPage.read(DOCS.resolve("getting-started.md"));
    List<HostEntry> entries = new ArrayList<>();
    for (MarkdownPage.Block block : page.blocksNoted("host-config:")) {
      JsonNode config;
      try {
        config = JSON.readTree(block.body());
      } catch (IOException e) {
        throw new AssertionError(where(page, block) + " is not JSON", e);
      }
      assertThat(block.language()).isEqualTo("json");
      JsonNode servers =
          config.has("mcpServers") ? config.get("mcpServers") : config.get("servers");
      assertThat(servers).as("%s has mcpServers or servers", where(page, block)).isNotNull();
      assertThat(config.size()).as(where(page, block)).isEqualTo(1);
      for (Iterator<JsonNode> it = servers.elements(); it.hasNext(); ) {
        entries.add(new HostEntry(where(page, block) + " (" + block.note() + ")", it.next()));
      }
    }
    return entries;
  }

  /** The arguments of a stdio entry, the checkout placeholder replaced by this repository. */
  static List<String> stdioArguments(JsonNode entry) {
    List<String> args = new ArrayList<>();
    entry
        .get("args")
        .forEach(a -> args.add(a.asText().replace(CHECKOUT, REPO.toAbsolutePath().toString())));
    return args;
  }

  @Test
  void hostConfigs_claudeMcpAddLines_runTheLauncherAndNameTheDocumentedUrl() throws IOException {
    String page = Files.readString(DOCS.resolve("getting-started.md"));
    Matcher line = Pattern.compile("`(claude mcp add [^`]+)`").matcher(page);
    List<String> commands = new ArrayList<>();
    while (line.find()) {
      commands.add(line.group(1));
    }
    assertThat(commands).hasSize(2);
    String stdio = commands.get(0);
    assertThat(stdio).contains(" -- " + CHECKOUT + "/bin/skillport ");
    List<String> args =
        new ArrayList<>(
            List.of(
                stdio
                    .substring(stdio.indexOf(" -- ") + 4 + (CHECKOUT + "/bin/skillport ").length())
                    .replace(CHECKOUT, REPO.toAbsolutePath().toString())
                    .split(" ")));
    ParseResult serve = commandLine().parseArgs(args.toArray(String[]::new)).subcommand();
    assertThat(serve.commandSpec().name()).isEqualTo("serve");
    assertThat(Path.of(serve.matchedOptionValue("--skills", List.of("")).get(0))).isDirectory();
    List<String> urls =
        hostEntries().stream()
            .filter(e -> e.entry().has("url"))
            .map(e -> e.entry().get("url").asText())
            .toList();
    String http = commands.get(1);
    assertThat(http).contains("--transport http skillport ");
    assertThat(urls).contains(http.substring(http.lastIndexOf(' ') + 1));
  }

  @Test
  void hostConfigs_stdioEntriesParseWithTheRealCommandLine() {
    List<HostEntry> stdio = hostEntries().stream().filter(e -> e.entry().has("command")).toList();
    assertThat(stdio).hasSizeGreaterThanOrEqualTo(2);
    for (HostEntry e : stdio) {
      JsonNode entry = e.entry();
      Set<String> keys = new LinkedHashSet<>();
      entry.fieldNames().forEachRemaining(keys::add);
      assertThat(keys).as(e.where()).isSubsetOf("type", "command", "args", "env");
      if (entry.has("type")) {
        assertThat(entry.get("type").asText()).as(e.where()).isEqualTo("stdio");
      }
      assertThat(entry.get("command").asText())
          .as(e.where())
          .isEqualTo(CHECKOUT + "/bin/skillport");
      List<String> args = stdioArguments(entry);
      ParseResult parsed = commandLine().parseArgs(args.toArray(String[]::new));
      assertThat(parsed.subcommand()).as(e.where()).isNotNull();
      ParseResult serve = parsed.subcommand();
      assertThat(serve.commandSpec().name()).as(e.where()).isEqualTo("serve");
      assertThat(serve.hasMatchedOption("--http")).as(e.where()).isFalse();
      if (serve.hasMatchedOption("--skills")) {
        List<String> roots = serve.matchedOptionValue("--skills", List.of());
        assertThat(roots)
            .as(e.where())
            .allSatisfy(
                root -> assertThat(Path.of(root.replaceFirst("^[a-z]+=", ""))).isDirectory());
      }
    }
  }

  @Test
  void hostConfigs_urlEntriesNameTheDefaultEndpoint() {
    List<HostEntry> http = hostEntries().stream().filter(e -> e.entry().has("url")).toList();
    assertThat(http).hasSizeGreaterThanOrEqualTo(2);
    CommandSpec serve = commandLine().getSubcommands().get("serve").getCommandSpec();
    for (HostEntry e : http) {
      JsonNode entry = e.entry();
      Set<String> keys = new LinkedHashSet<>();
      entry.fieldNames().forEachRemaining(keys::add);
      assertThat(keys).as(e.where()).isSubsetOf("type", "url", "headers");
      if (entry.has("type")) {
        assertThat(entry.get("type").asText()).as(e.where()).isEqualTo("http");
      }
      URI url = URI.create(entry.get("url").asText());
      assertThat(url.getScheme()).isEqualTo("http");
      assertThat(url.getHost()).as(e.where()).isEqualTo(serve.findOption("--host").defaultValue());
      assertThat(String.valueOf(url.getPort()))
          .as(e.where())
          .isEqualTo(serve.findOption("--port").defaultValue());
      assertThat(url.getPath()).as(e.where()).isEqualTo("/mcp");
    }
  }

  // --- architecture ----------------------------------------------------------------------------

  private static Document pom(Path file) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory.newDocumentBuilder().parse(file.toFile());
    } catch (Exception e) {
      throw new AssertionError("cannot read " + file, e);
    }
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      if (n instanceof Element el && el.getTagName().equals(name)) {
        out.add(el);
      }
    }
    return out;
  }

  private static String child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0).getTextContent().strip();
  }

  /**
   * {@code docs/architecture.md}'s module table lists the root pom's modules in its order, and for
   * each the modules its main code uses (the pom's dependencies on project modules outside the test
   * scope).
   */
  @Test
  void architecture_moduleTableIsTheRootPom() {
    Element root = pom(REPO.resolve("pom.xml")).getDocumentElement();
    List<String> modules =
        children(children(root, "modules").get(0), "module").stream()
            .map(m -> m.getTextContent().strip())
            .toList();
    Map<String, String> moduleOfArtifact = new LinkedHashMap<>();
    for (String module : modules) {
      moduleOfArtifact.put(
          child(pom(REPO.resolve(module).resolve("pom.xml")).getDocumentElement(), "artifactId"),
          module);
    }
    List<List<String>> rows =
        MarkdownPage.read(DOCS.resolve("architecture.md")).requireTable("module");
    assertThat(rows.stream().map(r -> r.get(0)).toList())
        .as(
            "docs/architecture.md's module table must list the root pom's modules in its order;"
                + " update the table when modules change")
        .containsExactlyElementsOf(modules.stream().map(m -> "`" + m + "`").toList());
    Pattern name = Pattern.compile("`([^`]+)`");
    for (int i = 0; i < modules.size(); i++) {
      Element pom = pom(REPO.resolve(modules.get(i)).resolve("pom.xml")).getDocumentElement();
      Set<String> uses = new TreeSet<>();
      List<Element> deps = children(pom, "dependencies");
      for (Element dep :
          deps.isEmpty() ? List.<Element>of() : children(deps.get(0), "dependency")) {
        String module = moduleOfArtifact.get(child(dep, "artifactId"));
        if (module != null && !"test".equals(child(dep, "scope"))) {
          uses.add(module);
        }
      }
      Set<String> documented = new TreeSet<>();
      Matcher m = name.matcher(rows.get(i).get(1));
      while (m.find()) {
        documented.add(m.group(1));
      }
      assertThat(documented)
          .as(
              "docs/architecture.md: what %s uses (its pom's project dependencies outside the"
                  + " test scope)",
              modules.get(i))
          .isEqualTo(uses);
    }
  }

  /**
   * {@code docs/running.md}'s metrics table is what {@code /metrics} serves: every metric family
   * the server registers, with its type and label names, and nothing else.
   */
  @Test
  void metrics_tableIsWhatTheServerExposes() {
    ServerMetrics metrics =
        new ServerMetrics(Catalog::empty, () -> Map.of(JobStatus.RUNNING, 1), () -> 0, () -> 0);
    metrics.onCall(
        new AuditEntry(Instant.now(), "s", "some_tool", Duration.ofMillis(3), "ok", List.of()));
    metrics.requestListener().requestReceived(Era.MODERN, "tools/list");
    String text = new String(metrics.scrape(), StandardCharsets.UTF_8);
    Map<String, String> served = new TreeMap<>();
    Matcher type = Pattern.compile("(?m)^# TYPE (\\S+) (\\S+)$").matcher(text);
    while (type.find()) {
      served.put(type.group(1), type.group(2));
    }
    Map<String, Set<String>> labels = new TreeMap<>();
    Matcher sample = Pattern.compile("(?m)^([a-z_]+)\\{([^}]*)\\}").matcher(text);
    while (sample.find()) {
      String family =
          served.keySet().stream()
              .filter(f -> sample.group(1).startsWith(f))
              .max(Comparator.comparingInt(String::length))
              .orElseThrow();
      for (String pair : sample.group(2).split(",(?=[a-z_]+=)")) {
        String label = pair.substring(0, pair.indexOf('='));
        if (!label.equals("le")) {
          labels.computeIfAbsent(family, f -> new TreeSet<>()).add(label);
        }
      }
    }
    List<List<String>> rows = MarkdownPage.read(DOCS.resolve("running.md")).requireTable("metric");
    Map<String, String> documented = new TreeMap<>();
    Map<String, Set<String>> documentedLabels = new TreeMap<>();
    for (List<String> row : rows) {
      String family = row.get(0).replace("`", "");
      documented.put(family, row.get(1));
      Set<String> names = new TreeSet<>();
      Matcher m = Pattern.compile("`([^`]+)`").matcher(row.get(2));
      while (m.find()) {
        names.add(m.group(1));
      }
      if (!names.isEmpty()) {
        documentedLabels.put(family, names);
      }
    }
    assertThat(documented)
        .as("docs/running.md's metrics table: every family /metrics serves, with its type")
        .isEqualTo(served);
    assertThat(documentedLabels)
        .as("docs/running.md's metrics table: each family's labels")
        .isEqualTo(labels);
  }
}
