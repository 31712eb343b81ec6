package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.invalid;
import static dev.skillport.runtime.core.CoreTools.searchHint;
import static dev.skillport.runtime.core.CoreTools.status;
import static dev.skillport.runtime.core.CoreTools.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.search.SkillHit;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.registry.search.SkillSearchIndex;
import dev.skillport.runtime.SessionState;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code search_skills}: finds skills by keyword, tags, host or scope through the catalog's search
 * index.
 */
final class SearchSkills implements CoreToolCall {

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return searchSkills(catalog, session, args);
  }

  private ToolResult searchSkills(Catalog catalog, SessionState session, JsonNode a) {
    Scope scope = null;
    if (a.hasNonNull("scope")) {
      scope = Scope.parse(a.get("scope").asText()).orElse(null);
      if (scope == null) {
        return invalid("unknown scope " + a.get("scope"), "use repo, user, team, system or admin");
      }
    }
    int limit = Math.max(1, Math.min(100, a.path("limit").asInt(20)));
    List<String> tags = new ArrayList<>();
    a.path("tags").forEach(t -> tags.add(t.asText()));
    SkillQuery q =
        new SkillQuery(
            a.path("query").asText(""),
            tags,
            a.hasNonNull("dcc") ? a.get("dcc").asText() : null,
            scope,
            limit,
            a.path("include_hidden").asBoolean(false));
    SkillSearchIndex index = catalog.searchIndex();
    ObjectNode out = NODES.objectNode();
    out.put("total", index.count(q));
    out.put("query", q.query());
    out.put("search", index.semanticState().ranking());
    ArrayNode skills = out.putArray("skills");
    for (SkillHit hit : index.search(q)) {
      skills.add(searchItem(hit.skill(), session.view()));
    }
    return ToolResult.structured(out);
  }

  private ObjectNode searchItem(Skill s, SessionView view) {
    DccExtensions ext = s.manifest().extensions();
    ObjectNode o = NODES.objectNode();
    o.put("name", s.name());
    o.put("description", s.manifest().description());
    o.put("tools", s.tools().size());
    o.put("loaded", view.isLoaded(s.name()));
    o.put("dcc", ext.dcc());
    o.put("scope", s.scope().label());
    o.set("tags", strings(ext.discovery().tags()));
    o.put("search_hint", searchHint(s));
    o.put("state", status(s, view));
    o.put("layer", ext.discovery().layer().label());
    return o;
  }
}
