package dev.skillport.cli;

import dev.skillport.api.skill.Skill;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code skillport list}: a table of the skills found, one row per skill. */
@Command(
    name = "list",
    description = "List the skills found: name, scope, state, tool count and folder.")
final class ListCommand implements Callable<Integer> {
  private static final List<String> HEADER = List.of("NAME", "SCOPE", "STATE", "TOOLS", "PATH");

  @ParentCommand private SkillportCommand parent;

  @Mixin private SkillPaths paths;

  @Option(
      names = "--strict",
      description =
          "Read as validate --strict does: format warnings are errors, so such skills are listed as"
              + " skipped (default: lenient, as the server reads them).")
  private boolean strict;

  @Override
  public Integer call() {
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADER);
    DisplayPaths display = parent.displayPaths();
    for (Skill skill : parent.reader().read(parent.roots(paths), strict).skills()) {
      rows.add(
          List.of(
              skill.name(),
              skill.scope().label(),
              skill.state().label(),
              Integer.toString(skill.tools().size()),
              display.show(skill.location().directory())));
    }
    printTable(rows, parent.output().stdout());
    return SkillportCommand.EXIT_OK;
  }

  /** Left-aligned columns two spaces apart; the last column is not padded. */
  private static void printTable(List<List<String>> rows, PrintWriter out) {
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
