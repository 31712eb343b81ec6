package dev.skillport.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown page of the repository as the docs tests read it: its fenced blocks (with the HTML
 * comment right above each, which names where an example comes from), its relative links and its
 * heading anchors as a repository host renders them.
 */
record MarkdownPage(Path file, String text) {
  private static final Pattern FENCE =
      Pattern.compile("(?ms)^(?:<!-- ([^\\n]*?) -->\\n)?```([\\w-]*)\\n(.*?)^```$");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  /** The note of a block of {@code curl} commands run against a launched server. */
  static final String CURL_TRANSCRIPT = "curl transcript";

  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");

  /** A fenced block: its info string, its text, and the comment line above it ("" if none). */
  record Block(String language, String body, String note, int line) {
    /**
     * A transcript of {@code bin/skillport}: its lines start with {@code $ }. A block noted {@code
     * curl transcript} is run against a launched server by {@code DocsRestIT} instead.
     */
    boolean isTranscript() {
      return body.startsWith("$ ") && !note.startsWith(CURL_TRANSCRIPT);
    }
  }

  static MarkdownPage read(Path file) {
    try {
      return new MarkdownPage(file, Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<Block> blocks() {
    List<Block> blocks = new ArrayList<>();
    Matcher m = FENCE.matcher(text);
    while (m.find()) {
      String note = m.group(1) == null ? "" : m.group(1).strip();
      blocks.add(new Block(m.group(2), m.group(3), note, lineOf(m.start(2))));
    }
    return blocks;
  }

  /** The blocks whose comment line starts with {@code key}, e.g. {@code file:}. */
  List<Block> blocksNoted(String key) {
    return blocks().stream().filter(b -> b.note().startsWith(key)).toList();
  }

  /** The text with fenced blocks blanked out, so that links and tables are not read from code. */
  String prose() {
    Matcher m = FENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement("\n".repeat(lines(m.group()))));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Every link target that is not a URL with a scheme and not a bare anchor of this page. */
  List<String> relativeLinks() {
    List<String> links = new ArrayList<>();
    Matcher m = LINK.matcher(prose());
    while (m.find()) {
      String target = m.group(1);
      if (!target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
        links.add(target);
      }
    }
    return links;
  }

  /** The anchors of this page's headings, as GitHub derives them (lower case, dashes). */
  Set<String> anchors() {
    Set<String> anchors = new LinkedHashSet<>();
    Matcher m = HEADING.matcher(prose());
    while (m.find()) {
      String slug =
          m.group(1)
              .strip()
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N} _-]", "")
              .replace(' ', '-');
      String candidate = slug;
      for (int n = 1; !anchors.add(candidate); n++) {
        candidate = slug + "-" + n;
      }
    }
    return anchors;
  }

  /**
   * The lines of the Markdown table whose header row starts with {@code firstHeader}, as cells with
   * the surrounding pipes and spaces removed; section rows (a bold first cell) are left out.
   */
  List<List<String>> table(String firstHeader) {
    List<List<String>> rows = new ArrayList<>();
    boolean inTable = false;
    for (String line : prose().split("\n", -1)) {
      if (!inTable) {
        inTable = line.startsWith("| " + firstHeader + " |");
        continue;
      }
      if (!line.startsWith("|")) {
        if (!rows.isEmpty()) {
          break;
        }
        inTable = false;
        continue;
      }
      List<String> cells = cells(line);
      if (cells.get(0).startsWith("---") || cells.get(0).startsWith("**")) {
        continue;
      }
      rows.add(cells);
    }
    return rows;
  }

  /** Finds a table or fails with the page's name. */
  List<List<String>> requireTable(String firstHeader) {
    List<List<String>> rows = table(firstHeader);
    if (rows.isEmpty()) {
      throw new AssertionError(file + " has no table with a first column '" + firstHeader + "'");
    }
    return rows;
  }

  /** The first block whose comment line is exactly {@code note}. */
  Optional<Block> block(String note) {
    return blocks().stream().filter(b -> b.note().equals(note)).findFirst();
  }

  private static List<String> cells(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    String inner = line.strip();
    inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (c == '\\' && i + 1 < inner.length() && inner.charAt(i + 1) == '|') {
        cell.append('|');
        i++;
      } else if (c == '|') {
        cells.add(cell.toString().strip());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString().strip());
    return cells;
  }

  private int lineOf(int offset) {
    return 1 + lines(text.substring(0, offset));
  }

  private static int lines(String s) {
    return (int) s.chars().filter(c -> c == '\n').count();
  }
}
