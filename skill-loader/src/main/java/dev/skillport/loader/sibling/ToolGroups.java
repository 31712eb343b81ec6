package dev.skillport.loader.sibling;

import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.GroupSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Works out group membership: the union of each tool's {@code group:} field and each group's {@code
 * tools:} list.
 *
 * <p>A tool naming a group that is not declared gets an implicit group of that name, inactive by
 * default, with a warning: the author asked for the tool to be grouped, and hiding it until the
 * group is activated is the safer reading than exposing it always. A tool's own {@code group:} wins
 * over a group that lists it; between two groups listing the same tool, the first wins.
 */
final class ToolGroups {
  private final SiblingContext ctx;

  /** The tools with their {@code group} set, and the groups with their members. */
  record Result(List<DeclaredTool> tools, List<GroupSpec> groups) {}

  ToolGroups(SiblingContext ctx) {
    this.ctx = ctx;
  }

  Result assemble(List<DeclaredTool> tools, List<DeclaredGroup> declared) {
    Map<String, DeclaredGroup> groups = new LinkedHashMap<>();
    declared.forEach(g -> groups.put(g.name(), g));
    Map<String, DeclaredTool> byName = new LinkedHashMap<>();
    Map<String, String> membership = new HashMap<>();
    for (DeclaredTool tool : tools) {
      byName.put(tool.spec().name(), tool);
      String group = tool.spec().group();
      if (group == null) {
        continue;
      }
      membership.put(tool.spec().name(), group);
      if (!groups.containsKey(group)) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.TOOL_GROUP_UNKNOWN,
                "Tool '"
                    + tool.spec().name()
                    + "' names group '"
                    + group
                    + "', which the skill does not declare; an inactive group of that name was"
                    + " made for it.",
                tool.file(),
                tool.at(),
                "Declare the group under 'groups:' (with default-active: true to show it at once).");
        groups.put(
            group, new DeclaredGroup(group, "", List.of(), false, true, tool.file(), tool.place()));
      }
    }
    for (DeclaredGroup group : groups.values()) {
      for (DeclaredGroup.Member member : group.tools()) {
        String tool = member.tool();
        if (!byName.containsKey(tool)) {
          ctx.diagnostics()
              .report(
                  DiagnosticCode.GROUP_UNKNOWN_TOOL,
                  "Group '" + group.name() + "' lists tool '" + tool + "', which the skill lacks.",
                  group.file(),
                  member.at(),
                  null);
          continue;
        }
        String current = membership.putIfAbsent(tool, group.name());
        if (current != null && !current.equals(group.name())) {
          ctx.diagnostics()
              .report(
                  DiagnosticCode.GROUP_TOOL_CONFLICT,
                  "Group '"
                      + group.name()
                      + "' lists tool '"
                      + tool
                      + "', which already belongs to group '"
                      + current
                      + "'; it stays there.",
                  group.file(),
                  member.at(),
                  null);
        }
      }
    }
    List<DeclaredTool> grouped = new ArrayList<>(tools.size());
    Map<String, List<String>> members = new LinkedHashMap<>();
    groups.keySet().forEach(g -> members.put(g, new ArrayList<>()));
    for (DeclaredTool tool : tools) {
      String group = membership.get(tool.spec().name());
      if (group != null) {
        members.get(group).add(tool.spec().name());
      }
      grouped.add(
          group == null || group.equals(tool.spec().group())
              ? tool
              : tool.withSpec(tool.spec().toBuilder().group(group).build()));
    }
    List<GroupSpec> specs = new ArrayList<>();
    for (DeclaredGroup g : groups.values()) {
      specs.add(new GroupSpec(g.name(), g.description(), members.get(g.name()), g.defaultActive()));
    }
    return new Result(grouped, specs);
  }
}
