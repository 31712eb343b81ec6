package dev.skillport.loader.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.testing.RepoFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link YamlSubsetReader} and the engine path side by side over every YAML file and SKILL.md
 * frontmatter in the test fixtures and samples, and over thousands of seeded mutations of them:
 * either the subset reader declines, or the tree (types, order) and every position are identical.
 * {@link SafeYaml#parse} itself must always give the engine's exact result, accepted or rejected.
 *
 * <p>Reproducible: {@code -Dskillport.yaml.diff.seed=N} replays a run, {@code
 * -Dskillport.yaml.diff.mutations=N} sets how many mutated texts per corpus file (default 12).
 */
class YamlSubsetDifferentialTest {
  private static final long SEED = Long.getLong("skillport.yaml.diff.seed", 0x7A_31_5EEDL);
  private static final int MUTATIONS = Integer.getInteger("skillport.yaml.diff.mutations", 12);

  /** Folders searched for YAML and SKILL.md files, relative to the module. */
  private static final List<Path> CORPUS_ROOTS =
      List.of(
          Path.of("src/test/resources"),
          Path.of("../samples"),
          Path.of("../bundled-skills/src/main/resources"));

  /** Fragments that sit at the edges of the subset or of YAML itself. */
  private static final String[] TOKENS = {
    ": ",
    ":",
    " #",
    "#",
    "'",
    "''",
    "\"",
    "\\",
    "\\\"",
    "\\n",
    "\\u00e9",
    "\\x41",
    "\\U0001F600",
    "\\q",
    "- ",
    "-",
    "[",
    "]",
    "{",
    "}",
    ",",
    ", ",
    "\n",
    "  ",
    " ",
    "~",
    "null",
    "Null",
    "1",
    "-1",
    "+1",
    "0x1F",
    "0o17",
    "1_000",
    ".5",
    "1e3",
    ".inf",
    "-.Inf",
    ".nan",
    "true",
    "False",
    "yes",
    "é",
    "😀",
    "&a ",
    "*a",
    "! ",
    "!!str ",
    "| ",
    ">",
    "---",
    "...",
    "? ",
    "\t",
    "\r\n",
    "\r",
    "%",
    "@",
    "`",
    "<<",
    "key: value",
    "k: [a, b]",
    "k: {a: 1}",
    "- x",
    "\uFEFF",
    "\u0085",
    "\u2028",
    "\u00A0",
    "\u0007"
  };

  private static final List<Corpus> CORPUS = new ArrayList<>();

  private record Corpus(String name, String text, int lineOffset) {}

  @BeforeAll
  static void loadCorpus() throws IOException {
    for (Path file : RepoFiles.under(CORPUS_ROOTS, YamlSubsetDifferentialTest::isCorpusFile)) {
      String text;
      try {
        text =
            StandardCharsets.UTF_8
                .newDecoder()
                .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file)))
                .toString();
      } catch (java.nio.charset.CharacterCodingException e) {
        continue;
      }
      if (file.getFileName().toString().equals("SKILL.md")) {
        String frontmatter = frontmatter(text);
        if (frontmatter != null) {
          CORPUS.add(new Corpus(file.toString(), frontmatter, 1));
        }
      } else {
        CORPUS.add(new Corpus(file.toString(), text, 0));
      }
    }
  }

  private static boolean isCorpusFile(Path p) {
    String name = p.getFileName().toString();
    return name.endsWith(".yaml") || name.endsWith(".yml") || name.equals("SKILL.md");
  }

  /** The text between the first two fence lines, as the frontmatter splitter hands it over. */
  private static String frontmatter(String text) {
    String[] lines = text.replace("\r\n", "\n").split("\n", -1);
    if (lines.length == 0 || !lines[0].replace("\uFEFF", "").strip().equals("---")) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].stripTrailing().equals("---")) {
        return sb.toString();
      }
      sb.append(lines[i]).append('\n');
    }
    return null;
  }

  @Test
  void corpus_everyFile_subsetReaderAgreesWithEngineOrDeclines() {
    assertThat(CORPUS).as("the corpus must be found").hasSizeGreaterThan(100);
    int accepted = 0;
    for (Corpus c : CORPUS) {
      if (compare(c.text(), c.lineOffset(), YamlLimits.SIBLING, c.name())) {
        accepted++;
      }
    }
    assertThat(accepted)
        .as("the subset reader must take most real files, or it speeds nothing up")
        .isGreaterThan(CORPUS.size() / 2);
  }

  @Test
  void mutations_ofEveryFile_subsetReaderAgreesWithEngineOrDeclines() {
    SplittableRandom random = new SplittableRandom(SEED);
    int accepted = 0;
    int total = 0;
    for (Corpus c : CORPUS) {
      for (int m = 0; m < MUTATIONS; m++) {
        String mutated = mutate(c.text(), random);
        YamlLimits limits = random.nextInt(4) == 0 ? tightLimits(random) : YamlLimits.SIBLING;
        String label = c.name() + " mutation " + m + " (seed " + SEED + ")\n---\n" + mutated;
        if (compare(mutated, c.lineOffset(), limits, label)) {
          accepted++;
        }
        total++;
      }
    }
    assertThat(accepted)
        .as("mutations must exercise the subset reader, not only its declines")
        .isGreaterThan(total / 10);
    assertThat(accepted).as("mutations must also leave the subset").isLessThan(total);
  }

  /** Limits low enough that mutated files reach them. */
  private static YamlLimits tightLimits(SplittableRandom random) {
    return new YamlLimits(1 << 20, 50, 1 + random.nextInt(5), 1 + random.nextInt(60));
  }

  /**
   * Asserts agreement on one text; true when the subset reader accepted it.
   *
   * @param label printed with any failure so the input can be replayed
   */
  static boolean compare(String text, int lineOffset, YamlLimits limits, String label) {
    YamlResult engine = SafeYaml.parseWithEngine(text, limits, lineOffset);
    YamlResult full = SafeYaml.parse(text, limits, lineOffset);
    YamlDocument quick = YamlSubsetReader.read(text, limits, lineOffset);
    if (quick != null) {
      assertThat(engine)
          .as("the engine rejects what the subset reader accepted: %s", label)
          .isInstanceOf(YamlResult.Parsed.class);
      YamlDocument reference = ((YamlResult.Parsed) engine).document();
      assertSameTree(quick.root(), reference.root(), label);
      for (String pointer : probes(reference)) {
        assertThat(quick.locate(pointer))
            .as("locate(%s) differs: %s", pointer, label)
            .isEqualTo(reference.locate(pointer));
      }
      assertThat(quick.positions())
          .as("positions differ: %s", label)
          .isEqualTo(reference.positions());
    }
    assertSameResult(full, engine, label);
    return quick != null;
  }

  /** Every recorded pointer, plus missing children, odd tokens and non-pointers under each. */
  private static List<String> probes(YamlDocument reference) {
    List<String> probes = new ArrayList<>(List.of("", "/", "nope", "/0", "/nope/deeper"));
    for (String pointer : reference.positions().keySet()) {
      probes.add(pointer);
      probes.add(pointer + "/missing");
      probes.add(pointer + "/0");
      probes.add(pointer + "/01");
      probes.add(pointer + "/");
    }
    return probes;
  }

  static void assertSameResult(YamlResult actual, YamlResult expected, String label) {
    if (expected instanceof YamlResult.Rejected rejected) {
      assertThat(actual).as("result differs: %s", label).isEqualTo(rejected);
      return;
    }
    assertThat(actual).as("result differs: %s", label).isInstanceOf(YamlResult.Parsed.class);
    YamlDocument a = ((YamlResult.Parsed) actual).document();
    YamlDocument e = ((YamlResult.Parsed) expected).document();
    assertSameTree(a.root(), e.root(), label);
    assertThat(a.positions()).as("positions differ: %s", label).isEqualTo(e.positions());
  }

  /** Equal values, node classes and key order (ObjectNode equality ignores order). */
  static void assertSameTree(JsonNode actual, JsonNode expected, String label) {
    assertThat(actual).as("tree differs: %s", label).isEqualTo(expected);
    assertThat(actual.toString())
        .as("tree order differs: %s", label)
        .isEqualTo(expected.toString());
    assertThat(shape(actual)).as("node types differ: %s", label).isEqualTo(shape(expected));
  }

  /**
   * The node classes of a tree's scalars in document order ({@code IntNode} and {@code LongNode}
   * differ), with containers by kind: the subset reader builds frozen ones, the engine mutable
   * ones.
   */
  private static String shape(JsonNode node) {
    StringBuilder sb =
        new StringBuilder(
            node.isContainerNode() ? node.getNodeType().name() : node.getClass().getSimpleName());
    if (node.isContainerNode()) {
      sb.append('(');
      node.forEach(child -> sb.append(shape(child)).append(' '));
      sb.append(')');
    }
    return sb.toString();
  }

  /** One to three edits: inserted tokens, deleted or duplicated lines, changed indentation. */
  static String mutate(String text, SplittableRandom random) {
    String out = text;
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits; e++) {
      out =
          switch (random.nextInt(7)) {
            case 0, 1 -> insert(out, random, TOKENS[random.nextInt(TOKENS.length)]);
            case 2 -> deleteRange(out, random);
            case 3 -> editLine(out, random, true);
            case 4 -> editLine(out, random, false);
            case 5 -> reindent(out, random);
            default -> replaceValue(out, random);
          };
    }
    return out;
  }

  private static String insert(String text, SplittableRandom random, String token) {
    int at = random.nextInt(text.length() + 1);
    return text.substring(0, at) + token + text.substring(at);
  }

  private static String deleteRange(String text, SplittableRandom random) {
    if (text.isEmpty()) {
      return text;
    }
    int from = random.nextInt(text.length());
    int to = Math.min(text.length(), from + 1 + random.nextInt(6));
    return text.substring(0, from) + text.substring(to);
  }

  private static String editLine(String text, SplittableRandom random, boolean duplicate) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int at = random.nextInt(lines.size());
    if (duplicate) {
      lines.add(at, lines.get(at));
    } else {
      lines.remove(at);
    }
    return String.join("\n", lines);
  }

  private static String reindent(String text, SplittableRandom random) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int at = random.nextInt(lines.size());
    String line = lines.get(at);
    lines.set(
        at, random.nextBoolean() ? " ".repeat(1 + random.nextInt(2)) + line : line.stripLeading());
    return String.join("\n", lines);
  }

  /** Replaces the text after a line's first ": " with a token, typing edge cases included. */
  private static String replaceValue(String text, SplittableRandom random) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int at = random.nextInt(lines.size());
    String line = lines.get(at);
    int colon = line.indexOf(": ");
    if (colon < 0) {
      return text;
    }
    lines.set(at, line.substring(0, colon + 2) + TOKENS[random.nextInt(TOKENS.length)]);
    return String.join("\n", lines);
  }
}
