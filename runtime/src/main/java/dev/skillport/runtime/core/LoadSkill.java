package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.firstText;
import static dev.skillport.runtime.core.CoreTools.groupInfo;
import static dev.skillport.runtime.core.CoreTools.invalid;
import static dev.skillport.runtime.core.CoreTools.listedNames;
import static dev.skillport.runtime.core.CoreTools.loadFailure;
import static dev.skillport.runtime.core.CoreTools.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailure;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.HostExecutors;
import dev.skillport.runtime.SessionState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code load_skill}: loads skills and their dependencies into the session, starting the servers of
 * bridge skills, and activates a named group.
 */
final class LoadSkill implements CoreToolCall {
  private final CatalogHolder holder;
  private final ListedEntries listed;
  private final SkillServers servers;
  private final HostExecutors hosts;

  LoadSkill(CatalogHolder holder, ListedEntries listed, SkillServers servers, HostExecutors hosts) {
    this.holder = holder;
    this.listed = listed;
    this.servers = servers;
    this.hosts = hosts;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return loadSkill(catalog, session, args);
  }

  private ToolResult loadSkill(Catalog snapshot, SessionState session, JsonNode a) {
    List<String> names = new ArrayList<>();
    if (a.hasNonNull("skill_name")) {
      names.add(a.get("skill_name").asText());
    }
    a.path("skill_names").forEach(n -> names.add(n.asText()));
    if (names.isEmpty()) {
      return invalid("give skill_name or skill_names", "for example {\"skill_name\": \"x\"}");
    }
    String toolGroup = firstText(a, "tool_group", "group", "group_name");
    // A bridge whose tools are not known yet is started now and publishes a catalog with them:
    // a load that involves a bridge lists that newer catalog.
    Map<String, String> bridgeRefusals = servers.prepare(names);
    Catalog catalog = SkillServers.involvesBridge(snapshot, names) ? holder.current() : snapshot;
    SessionView view = session.view();
    SessionView.LoadOutcome outcome =
        view.load(
            catalog,
            names,
            a.path("activate_groups").asBoolean(true),
            // Host adapters decide whether the skill can run in this server, the operator's
            // trust whether its bridge may.
            skill ->
                hosts
                    .refusal(skill)
                    .or(() -> Optional.ofNullable(bridgeRefusals.get(skill.name()))));
    Set<String> requested = new LinkedHashSet<>();
    for (String n : names) {
      catalog.skill(n).map(Skill::name).filter(view::isLoaded).ifPresent(requested::add);
    }
    ArrayNode errors = NODES.arrayNode();
    outcome
        .failures()
        .forEach((skill, why) -> errors.addObject().put("skill_name", skill).put("message", why));
    Set<String> activated = new LinkedHashSet<>();
    for (String skill : outcome.loaded()) {
      view.activeGroups(skill).forEach(g -> activated.add(g));
    }
    boolean changed = !outcome.loaded().isEmpty();
    if (toolGroup != null && !requested.isEmpty()) {
      boolean found = false;
      for (String skill : requested) {
        Skill s = catalog.skill(skill).orElseThrow();
        if (s.groups().stream().anyMatch(g -> g.name().equals(toolGroup))) {
          found = true;
          changed |= view.setGroupActive(skill, toolGroup, true);
          activated.add(toolGroup);
        }
      }
      if (!found) {
        errors
            .addObject()
            .put("skill_name", String.join(",", requested))
            .put("message", "no group '" + toolGroup + "' in " + requested);
      }
    }
    if (changed) {
      session.notifyListChanged();
    }
    ObjectNode out = NODES.objectNode();
    out.put("loaded", !requested.isEmpty());
    out.put("partial", !requested.isEmpty() && !errors.isEmpty());
    List<String> registered = listedNames(listed, catalog, view, requested);
    out.set("registered_tools", strings(registered));
    out.put("tool_count", registered.size());
    out.set("newly_loaded", strings(outcome.loaded()));
    out.set("already_loaded", strings(outcome.alreadyLoaded()));
    ArrayNode groups = out.putArray("available_groups");
    for (String skill : requested) {
      Skill s = catalog.skill(skill).orElseThrow();
      for (GroupSpec g : s.groups()) {
        groups.add(groupInfo(s, g, view).put("skill_name", s.name()));
      }
    }
    out.set("activated_groups", strings(List.copyOf(activated)));
    ArrayNode tools = out.putArray("tools");
    for (ListedTool t : listed.session(catalog, view)) {
      if (t.kind() == ListedTool.Kind.TOOL && requested.contains(t.skill())) {
        ObjectNode o = listed.shown(t);
        o.put("skill_name", t.skill());
        tools.add(o);
      }
    }
    if (!errors.isEmpty()) {
      out.set("errors", errors);
    }
    if (names.size() == 1) {
      out.put("skill_name", names.get(0));
    }
    if (requested.isEmpty()) {
      List<String> messages = new ArrayList<>();
      errors.forEach(e -> messages.add(e.get("message").asText()));
      String message = String.join("; ", messages);
      ToolFailureCode code = loadFailure(catalog, names);
      out.put("code", code.name()).put("message", message);
      return new ToolResult(
          List.of(new Content.Text(code.name() + ": " + message)),
          out,
          true,
          new ToolFailure(code, message, null, null));
    }
    return ToolResult.structured(out);
  }
}
