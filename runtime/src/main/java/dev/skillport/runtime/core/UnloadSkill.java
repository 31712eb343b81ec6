package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.listedNames;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.Skill;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.SessionState;
import java.util.Set;

/** {@code unload_skill}: removes a skill's tools from the session. */
final class UnloadSkill implements CoreToolCall {
  private final ListedEntries listed;
  private final SkillServers servers;

  UnloadSkill(ListedEntries listed, SkillServers servers) {
    this.listed = listed;
    this.servers = servers;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return unloadSkill(catalog, session, args);
  }

  private ToolResult unloadSkill(Catalog catalog, SessionState session, JsonNode a) {
    String name = a.path("skill_name").asText("");
    String canonical = catalog.skill(name).map(Skill::name).orElse(name);
    int before = listedNames(listed, catalog, session.view(), Set.of(canonical)).size();
    boolean changed = session.view().unload(canonical);
    if (changed) {
      session.notifyListChanged();
      servers.releaseIfUnused(canonical);
    }
    ObjectNode out = NODES.objectNode();
    out.put("unloaded", changed);
    out.put("tools_removed", changed ? before : 0);
    out.put("skill_name", canonical);
    return ToolResult.structured(out);
  }
}
