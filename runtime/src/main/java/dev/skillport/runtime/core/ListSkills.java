package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.deniedReason;
import static dev.skillport.runtime.core.CoreTools.invalid;
import static dev.skillport.runtime.core.CoreTools.missingDependencies;
import static dev.skillport.runtime.core.CoreTools.runtimes;
import static dev.skillport.runtime.core.CoreTools.searchHint;
import static dev.skillport.runtime.core.CoreTools.status;
import static dev.skillport.runtime.core.CoreTools.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.SessionState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code list_skills}: the skills with their status, paged, with the item fields a caller picks.
 */
final class ListSkills implements CoreToolCall {
  /** Fields a {@code list_skills} item may be asked for with {@code fields}. */
  static final List<String> LIST_FIELDS =
      List.of(
          "name",
          "stage",
          "tool_count",
          "loaded",
          "status",
          "missing_dependencies",
          "scope",
          "summary",
          "dcc",
          "version",
          "layer",
          "implicit_invocation",
          "description",
          "search_hint",
          "tags",
          "tool_names",
          "runtime",
          "path",
          "shadowed_by",
          "denied_reason");

  /** The {@code list_skills} statuses a caller may filter by; {@code all} is every skill. */
  static final List<String> LIST_STATUSES =
      List.of(
          "all",
          "loaded",
          "unloaded",
          "discovered",
          "pending_deps",
          "error",
          "skipped",
          "shadowed",
          "denied");

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return listSkills(catalog, session, args);
  }

  private ToolResult listSkills(Catalog catalog, SessionState session, JsonNode a) {
    String wanted = a.path("status").asText("all").toLowerCase(Locale.ROOT);
    if (!LIST_STATUSES.contains(wanted)) {
      return invalid("unknown status '" + wanted + "'", "use one of " + LIST_STATUSES);
    }
    if (a.has("limit") && !(a.get("limit").canConvertToInt() && a.get("limit").asInt() >= 1)) {
      return invalid("limit must be an integer from 1 to 50", null);
    }
    int offset = Math.max(0, a.path("offset").asInt(0));
    Integer limit = a.has("limit") ? Math.min(50, a.get("limit").asInt()) : null;
    List<String> fields = null;
    if (a.hasNonNull("fields")) {
      fields = new ArrayList<>();
      for (JsonNode f : a.get("fields")) {
        String field = f.asText();
        if (!LIST_FIELDS.contains(field)) {
          return invalid("unknown field '" + field + "'", "fields may name " + LIST_FIELDS);
        }
        fields.add(field);
      }
    }
    SessionView view = session.view();
    List<Skill> matching = new ArrayList<>();
    int skipped = 0;
    for (Skill s : catalog.skills()) {
      if (s.state() == SkillState.SKIPPED) {
        skipped++;
      }
      if (matchesStatus(wanted, status(s, view))) {
        matching.add(s);
      }
    }
    matching.sort((x, y) -> x.name().compareTo(y.name()));
    int end = limit == null ? matching.size() : Math.min(matching.size(), offset + limit);
    ObjectNode out = NODES.objectNode();
    ArrayNode skills = out.putArray("skills");
    for (int i = offset; i < end; i++) {
      skills.add(listItem(matching.get(i), catalog, view, fields));
    }
    out.put("total", matching.size());
    if (limit == null) {
      out.putNull("limit");
    } else {
      out.put("limit", limit);
    }
    out.put("offset", offset);
    out.put("truncated", end < matching.size());
    out.put("skipped_count", skipped);
    return ToolResult.structured(out);
  }

  private static boolean matchesStatus(String wanted, String status) {
    return switch (wanted) {
      case "all" -> true;
      // Upstream's words for a skill that is found but not loaded, and one that failed.
      case "discovered" -> status.equals("unloaded");
      case "error" -> status.equals("skipped");
      default -> wanted.equals(status);
    };
  }

  private ObjectNode listItem(Skill s, Catalog catalog, SessionView view, List<String> fields) {
    DccExtensions ext = s.manifest().extensions();
    List<String> missing = missingDependencies(s, catalog);
    Object stage = ext.extras().get("stage");
    ObjectNode full = NODES.objectNode();
    full.put("name", s.name());
    if (stage != null) {
      full.put("stage", String.valueOf(stage));
    }
    full.put("tool_count", s.tools().size());
    full.put("loaded", view.isLoaded(s.name()));
    full.put("status", status(s, view));
    if (!missing.isEmpty()) {
      full.set("missing_dependencies", strings(missing));
    }
    full.put("scope", s.scope().label());
    full.put("summary", abbreviate(s.manifest().description(), SUMMARY_CHARS));
    full.put("dcc", ext.dcc());
    full.put("version", ext.version());
    full.put("layer", ext.discovery().layer().label());
    full.put("implicit_invocation", ext.discovery().allowImplicitInvocation());
    full.put("path", s.location().directory().toString());
    if (s.shadowedBy() != null) {
      full.put("shadowed_by", s.shadowedBy());
    }
    if (s.state() == SkillState.DENIED) {
      full.put("denied_reason", deniedReason(s, catalog));
    }
    if (fields == null) {
      return full;
    }
    full.put("description", s.manifest().description());
    full.put("search_hint", searchHint(s));
    full.set("tags", strings(ext.discovery().tags()));
    full.put("tool_names", String.join(",", s.tools().stream().map(ToolSpec::name).toList()));
    if (!s.runtimes().isEmpty()) {
      full.set("runtime", runtimes(s));
    }
    ObjectNode picked = NODES.objectNode();
    picked.set("name", full.get("name"));
    for (String f : fields) {
      if (full.has(f)) {
        picked.set(f, full.get(f));
      }
    }
    return picked;
  }

  private static String abbreviate(String text, int max) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= max ? flat : flat.substring(0, max - 1) + "…";
  }

  private static final int SUMMARY_CHARS = 200;
}
