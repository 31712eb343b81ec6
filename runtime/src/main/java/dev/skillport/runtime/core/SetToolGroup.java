package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.firstText;
import static dev.skillport.runtime.core.CoreTools.invalid;
import static dev.skillport.runtime.core.CoreTools.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.Skill;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.SessionState;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code activate_tool_group} and {@code deactivate_tool_group}: switches a tool group of a loaded
 * skill on or off for the session.
 */
final class SetToolGroup implements CoreToolCall {
  private final boolean active;

  SetToolGroup(boolean active) {
    this.active = active;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return setGroup(catalog, session, args, active);
  }

  private ToolResult setGroup(Catalog catalog, SessionState session, JsonNode a, boolean active) {
    String group = firstText(a, "group_name", "group");
    if (group == null) {
      return invalid("give group_name", "get_skill_info lists a skill's groups");
    }
    String skillName = a.hasNonNull("skill_name") ? a.get("skill_name").asText() : null;
    SessionView view = session.view();
    List<Skill> owners = new ArrayList<>();
    for (String loaded : view.loadedSkills()) {
      catalog
          .skill(loaded)
          .ifPresent(
              s -> {
                boolean named =
                    skillName == null
                        || s.name().equals(skillName)
                        || s.name().equals(skillName.replace('_', '-'));
                if (named && s.groups().stream().anyMatch(g -> g.name().equals(group))) {
                  owners.add(s);
                }
              });
    }
    if (owners.isEmpty()) {
      return ToolResult.failure(
          ToolFailureCode.GROUP_NOT_FOUND,
          "no loaded skill"
              + (skillName == null ? "" : " named '" + skillName + "'")
              + " has a group '"
              + group
              + "'",
          "load the skill first; get_skill_info lists its groups");
    }
    if (owners.size() > 1) {
      return ToolResult.failure(
          ToolFailureCode.GROUP_AMBIGUOUS,
          "several loaded skills have a group '" + group + "'",
          "pass skill_name");
    }
    Skill owner = owners.get(0);
    boolean changed = view.setGroupActive(owner.name(), group, active);
    if (changed) {
      session.notifyListChanged();
    }
    int toggled =
        changed ? (int) owner.tools().stream().filter(t -> group.equals(t.group())).count() : 0;
    ObjectNode out = NODES.objectNode();
    out.put("success", true);
    out.put("group", group);
    out.put("changed", toggled);
    out.set("active_groups", strings(view.activeGroups(owner.name()).stream().sorted().toList()));
    out.put("skill_name", owner.name());
    return ToolResult.structured(out);
  }
}
