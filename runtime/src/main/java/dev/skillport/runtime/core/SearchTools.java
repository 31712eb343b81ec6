package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.ToolNames;
import dev.skillport.registry.search.SkillSearchIndex;
import dev.skillport.runtime.SessionState;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code search_tools}: finds tools by keyword across loaded skills and, optionally, skills not
 * loaded yet.
 */
final class SearchTools implements CoreToolCall {
  private final ListedEntries listed;

  SearchTools(ListedEntries listed) {
    this.listed = listed;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return searchTools(catalog, session, args);
  }

  private ToolResult searchTools(Catalog catalog, SessionState session, JsonNode a) {
    String query = a.path("query").asText("");
    String dcc = a.hasNonNull("dcc") ? a.get("dcc").asText() : null;
    boolean includeDisabled = a.path("include_disabled").asBoolean(false);
    boolean includeUnloaded = a.path("include_unloaded_skills").asBoolean(true);
    boolean includeStubs = a.path("include_stubs").asBoolean(false);
    int limit = Math.max(1, Math.min(100, a.path("limit").asInt(25)));
    SessionView view = session.view();
    Map<String, ListedTool> listed = new LinkedHashMap<>();
    for (ListedTool t : this.listed.session(catalog, view)) {
      if (t.kind() == ListedTool.Kind.TOOL) {
        listed.put(t.skill() + "/" + t.spec().name(), t);
      }
    }
    ArrayNode tools = NODES.arrayNode();
    int total = 0;
    Map<String, ObjectNode> candidates = new LinkedHashMap<>();
    Set<String> stubs = new LinkedHashSet<>();
    for (SkillSearchIndex.ToolHit hit :
        catalog.searchIndex().searchTools(query, Integer.MAX_VALUE)) {
      Skill skill = hit.skill();
      String skillDcc = skill.manifest().extensions().dcc();
      if (dcc != null && !dcc.isBlank() && !skillDcc.equalsIgnoreCase(dcc)) {
        continue;
      }
      if (view.isLoaded(skill.name())) {
        ListedTool shown = listed.get(skill.name() + "/" + hit.tool().name());
        boolean enabled = shown != null;
        if (!enabled && !includeDisabled) {
          if (hit.tool().group() != null) {
            stubs.add(ToolNames.GROUP_STUB_PREFIX + hit.tool().group());
          }
          continue;
        }
        total++;
        if (tools.size() < limit) {
          ObjectNode o = tools.addObject();
          o.put("kind", "tool");
          // One name whether the tool is enabled or not: the qualified one, which calls it
          // whatever name the listing gives it.
          o.put("name", skill.name() + ToolNames.QUALIFIER + hit.tool().name());
          o.put("description", hit.tool().description());
          o.put("category", skill.name());
          if (hit.tool().group() == null) {
            o.putNull("group");
          } else {
            o.put("group", hit.tool().group());
          }
          o.put("enabled", enabled);
          o.put("dcc", skillDcc);
          o.put("skill_name", skill.name());
        }
      } else if (includeUnloaded && skill.state() == SkillState.AVAILABLE) {
        ObjectNode c = candidates.computeIfAbsent(skill.name(), k -> candidate(skill));
        ((ArrayNode) c.get("matching_tools")).add(hit.tool().name());
        stubs.add(ToolNames.SKILL_STUB_PREFIX + skill.name());
      }
    }
    if (includeStubs) {
      Map<String, ListedTool> stubEntries = new LinkedHashMap<>();
      for (ListedTool t : this.listed.session(catalog, view)) {
        if (t.kind() == ListedTool.Kind.GROUP_STUB || t.kind() == ListedTool.Kind.SKILL_STUB) {
          stubEntries.put(t.name(), t);
        }
      }
      for (String stub : stubs) {
        ListedTool t = stubEntries.get(stub);
        if (t != null && tools.size() < limit) {
          ObjectNode o = tools.addObject();
          o.put("kind", t.kind() == ListedTool.Kind.GROUP_STUB ? "group_stub" : "skill_stub");
          o.put("name", t.name());
          o.set("description", t.wire().get("description"));
          o.put("skill_name", t.skill());
        }
      }
    }
    ObjectNode out = NODES.objectNode();
    out.put("total", total);
    out.put("query", query);
    out.set("tools", tools);
    ArrayNode cands = out.putArray("skill_candidates");
    candidates.values().stream().limit(limit).forEach(cands::add);
    return ToolResult.structured(out);
  }

  private static ObjectNode candidate(Skill skill) {
    DccExtensions ext = skill.manifest().extensions();
    ObjectNode o = NODES.objectNode();
    o.put("kind", "skill_candidate");
    o.put("skill_name", skill.name());
    o.put("description", skill.manifest().description());
    o.set("tags", strings(ext.discovery().tags()));
    o.put("dcc", ext.dcc());
    o.put("scope", skill.scope().label());
    o.put("tool_count", skill.tools().size());
    o.putArray("matching_tools");
    o.put("requires_load_skill", true);
    ObjectNode hint = o.putObject("load_hint").put("tool", "load_skill");
    hint.putObject("arguments").put("skill_name", skill.name());
    return o;
  }
}
