package dev.skillport.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.Skill;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code skillport list}: the skills found, one row (or JSON object) per skill. */
@Command(
    name = "list",
    addMethodSubcommands = false,
    description = "List the skills found: name, scope, state, tool count and folder.")
final class ListCommand implements Callable<Integer> {
  private static final List<String> HEADER = List.of("NAME", "SCOPE", "STATE", "TOOLS", "PATH");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** How the list is printed. */
  enum Format {
    /** Aligned columns for people. */
    TABLE,
    /** One JSON document for scripts: {@code {"version":1,"skills":[...]}}. */
    JSON
  }

  @ParentCommand private SkillportCommand parent;

  @Mixin private SkillPaths paths;

  @Option(
      names = "--strict",
      description =
          "Read as validate --strict does: format warnings are errors, so such skills are listed as"
              + " skipped (default: lenient, as the server reads them).")
  private boolean strict;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "Output format: table (for people) or json (for scripts) (default: table).")
  private Format format = Format.TABLE;

  @Override
  public Integer call() {
    List<Skill> skills = parent.reader().read(parent.roots(paths), strict).skills();
    DisplayPaths display = parent.displayPaths();
    PrintWriter out = parent.output().stdout();
    switch (format) {
      case TABLE -> printTable(skills, display, out);
      case JSON -> printJson(skills, display, out);
    }
    return SkillportCommand.EXIT_OK;
  }

  /**
   * Every key always present, the same names as {@code validate --format json}'s skills, so a
   * script reads both alike.
   */
  private static void printJson(List<Skill> skills, DisplayPaths display, PrintWriter out) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", 1);
    ArrayNode array = root.putArray("skills");
    for (Skill skill : skills) {
      ObjectNode node = array.addObject();
      node.put("name", skill.name());
      node.put("description", skill.manifest().description());
      node.put("scope", skill.scope().label());
      node.put("state", skill.state().label());
      node.put("tools", skill.tools().size());
      node.put("path", display.show(skill.location().directory()));
    }
    try {
      out.println(MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    out.flush();
  }

  private static void printTable(List<Skill> skills, DisplayPaths display, PrintWriter out) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADER);
    for (Skill skill : skills) {
      rows.add(
          List.of(
              skill.name(),
              skill.scope().label(),
              skill.state().label(),
              Integer.toString(skill.tools().size()),
              display.show(skill.location().directory())));
    }
    printColumns(rows, out);
  }

  /** Left-aligned columns two spaces apart; the last column is not padded. */
  private static void printColumns(List<List<String>> rows, PrintWriter out) {
    int[] widths = new int[HEADER.size()];
    for (List<String> row : rows) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < widths.length - 1; i++) {
        line.append(row.get(i)).append(" ".repeat(widths[i] - row.get(i).length() + 2));
      }
      out.println(line.append(row.get(widths.length - 1)));
    }
    out.flush();
  }
}
