package dev.skillport.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.diagnostic.Diagnostic;
import dev.skillport.api.skill.DccExtensions;
import dev.skillport.api.skill.GroupSpec;
import dev.skillport.api.skill.PromptSpec;
import dev.skillport.api.skill.Scope;
import dev.skillport.api.skill.Skill;
import dev.skillport.api.skill.SkillState;
import dev.skillport.api.skill.ToolSpec;
import dev.skillport.api.skill.WorkflowSpec;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.search.SkillHit;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.registry.search.SkillSearchIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/** The platform's own tools (mcp-surface.md section 4), listed first in every session. */
final class CoreTools {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SkillportService service;
  private final Map<String, BiFunction<SessionState, JsonNode, ToolResult>> impls =
      new LinkedHashMap<>();
  private final List<CoreTool> definitions = new ArrayList<>();

  CoreTools(SkillportService service) {
    this.service = service;
    define(
        "search_skills",
        "Find skills by keyword (typo- and prefix-tolerant), tags, host or scope. An empty query"
            + " browses. Then call load_skill to get a skill's tools.",
        """
        {"type":"object","properties":{
          "query":{"type":"string","description":"keywords"},
          "tags":{"type":"array","items":{"type":"string"},"description":"all must match"},
          "dcc":{"type":"string"},"scope":{"type":"string","enum":["repo","user","team","system","admin"]},
          "limit":{"type":"integer","minimum":1,"maximum":100,"default":20},
          "include_hidden":{"type":"boolean","default":false}}}""",
        true,
        this::searchSkills);
    define(
        "list_skills",
        "List skills with their state (loaded, unloaded, shadowed, skipped, pending_deps).",
        """
        {"type":"object","properties":{
          "status":{"type":"string","enum":["loaded","unloaded","shadowed","skipped","pending_deps","all"]},
          "limit":{"type":"integer","minimum":1},"offset":{"type":"integer","minimum":0}}}""",
        true,
        this::listSkills);
    define(
        "get_skill_info",
        "Show a skill's metadata, instructions, tools with full schemas, groups, prompts,"
            + " workflows and diagnostics.",
        """
        {"type":"object","properties":{"skill_name":{"type":"string"}},"required":["skill_name"]}""",
        true,
        this::skillInfo);
    define(
        "load_skill",
        "Load skills (and their dependencies) into this session so their tools are listed.",
        """
        {"type":"object","properties":{
          "skill_name":{"type":"string"},
          "skill_names":{"type":"array","items":{"type":"string"}},
          "activate_groups":{"type":"boolean","default":true}}}""",
        false,
        this::loadSkill);
    define(
        "unload_skill",
        "Remove a skill's tools from this session.",
        """
        {"type":"object","properties":{"skill_name":{"type":"string"}},"required":["skill_name"]}""",
        false,
        this::unloadSkill);
    define(
        "activate_tool_group",
        "Activate a tool group of a loaded skill so its tools are listed.",
        """
        {"type":"object","properties":{"group":{"type":"string"},"skill_name":{"type":"string"}},
         "required":["group"]}""",
        false,
        (s, a) -> setGroup(s, a, true));
    define(
        "deactivate_tool_group",
        "Deactivate a tool group of a loaded skill.",
        """
        {"type":"object","properties":{"group":{"type":"string"},"skill_name":{"type":"string"}},
         "required":["group"]}""",
        false,
        (s, a) -> setGroup(s, a, false));
    define(
        "search_tools",
        "Find tools by keyword across loaded skills and, optionally, skills not loaded yet.",
        """
        {"type":"object","properties":{
          "query":{"type":"string"},
          "include_unloaded_skills":{"type":"boolean","default":true},
          "limit":{"type":"integer","minimum":1,"maximum":100,"default":20}},
         "required":["query"]}""",
        true,
        this::searchTools);
    define(
        "jobs_get_status",
        "Show a job's status and progress, and its result once finished when include_result is"
            + " true.",
        """
        {"type":"object","properties":{
          "job_id":{"type":"string"},"include_result":{"type":"boolean","default":false}},
         "required":["job_id"]}""",
        true,
        this::jobStatus);
    define(
        "jobs_cancel",
        "Cancel a pending or running job and its child jobs.",
        """
        {"type":"object","properties":{"job_id":{"type":"string"}},"required":["job_id"]}""",
        false,
        this::cancelJob);
    define(
        "jobs_cleanup",
        "Remove finished jobs older than older_than_hours (24 by default).",
        """
        {"type":"object","properties":{"older_than_hours":{"type":"number","minimum":0,"default":24}}}""",
        false,
        this::cleanupJobs);
  }

  private ToolResult jobStatus(SessionState session, JsonNode a) {
    String id = a.path("job_id").asText("");
    boolean withResult = a.path("include_result").asBoolean(false);
    return service
        .jobs()
        .status(id)
        .map(job -> ToolResult.structured(job.toWire(withResult)))
        .orElseGet(() -> noSuchJob(id));
  }

  private ToolResult cancelJob(SessionState session, JsonNode a) {
    String id = a.path("job_id").asText("");
    if (service.jobs().status(id).isEmpty()) {
      return noSuchJob(id);
    }
    boolean cancelled = service.jobs().cancel(id);
    return ToolResult.structured(NODES.objectNode().put("job_id", id).put("cancelled", cancelled));
  }

  private ToolResult cleanupJobs(SessionState session, JsonNode a) {
    double hours = a.path("older_than_hours").asDouble(24);
    if (!(hours >= 0)) {
      return ToolCallErrors.result(
          "INVALID_ARGUMENTS", "older_than_hours must not be negative", null);
    }
    int removed = service.jobs().cleanup(Duration.ofSeconds(Math.round(hours * 3600)));
    return ToolResult.structured(NODES.objectNode().put("removed", removed));
  }

  private static ToolResult noSuchJob(String id) {
    return ToolCallErrors.result(
        "JOB_NOT_FOUND", "no job with id '" + id + "'", "job ids come from an async call's result");
  }

  List<CoreTool> definitions() {
    return List.copyOf(definitions);
  }

  boolean has(String name) {
    return impls.containsKey(name);
  }

  ToolResult call(String name, SessionState session, JsonNode args) {
    return impls.get(name).apply(session, args);
  }

  private void define(
      String name,
      String description,
      String schema,
      boolean readOnly,
      BiFunction<SessionState, JsonNode, ToolResult> impl) {
    ObjectNode annotations = NODES.objectNode().put("readOnlyHint", readOnly);
    if (!readOnly) {
      annotations.put("destructiveHint", false).put("idempotentHint", true);
    }
    definitions.add(new CoreTool(name, description, parse(schema), annotations));
    impls.put(name, impl);
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ToolResult searchSkills(SessionState session, JsonNode a) {
    Scope scope = null;
    if (a.hasNonNull("scope")) {
      scope = Scope.parse(a.get("scope").asText()).orElse(null);
      if (scope == null) {
        return ToolCallErrors.result("INVALID_ARGUMENTS", "unknown scope " + a.get("scope"), null);
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
    Catalog catalog = service.catalog();
    SkillSearchIndex index = catalog.searchIndex();
    ObjectNode out = NODES.objectNode();
    out.put("total", index.count(q));
    out.put("query", q.query());
    ArrayNode skills = out.putArray("skills");
    for (SkillHit hit : index.search(q)) {
      skills.add(summary(hit.skill(), session.view()));
    }
    return ToolResult.structured(out);
  }

  private ObjectNode summary(Skill s, SessionView view) {
    DccExtensions ext = s.manifest().extensions();
    ObjectNode o = NODES.objectNode();
    o.put("name", s.name());
    o.put("description", s.manifest().description());
    o.put("tools", s.tools().size());
    o.put("loaded", view.isLoaded(s.name()));
    o.put("dcc", ext.dcc());
    o.put("scope", s.scope().label());
    ArrayNode tags = o.putArray("tags");
    ext.tags().forEach(tags::add);
    o.put("search_hint", ext.searchHint() == null ? s.manifest().description() : ext.searchHint());
    o.put("state", status(s, view));
    return o;
  }

  private static String status(Skill s, SessionView view) {
    if (s.state() == SkillState.AVAILABLE) {
      return view.isLoaded(s.name()) ? "loaded" : "unloaded";
    }
    return s.state().label();
  }

  private ToolResult listSkills(SessionState session, JsonNode a) {
    String wanted = a.path("status").asText("all").toLowerCase(Locale.ROOT);
    int offset = Math.max(0, a.path("offset").asInt(0));
    int limit = a.has("limit") ? Math.max(1, a.get("limit").asInt()) : Integer.MAX_VALUE;
    List<Skill> matching = new ArrayList<>();
    int skipped = 0;
    for (Skill s : service.catalog().skills()) {
      if (s.state() == SkillState.SKIPPED) {
        skipped++;
      }
      String st = status(s, session.view());
      if (wanted.equals("all") || wanted.equals(st)) {
        matching.add(s);
      }
    }
    ObjectNode out = NODES.objectNode();
    out.put("total", matching.size());
    ArrayNode skills = out.putArray("skills");
    matching.stream()
        .skip(offset)
        .limit(limit)
        .forEach(
            s -> {
              ObjectNode o = summary(s, session.view());
              o.put("path", s.location().directory().toString());
              if (s.shadowedBy() != null) {
                o.put("shadowed_by", s.shadowedBy());
              }
              skills.add(o);
            });
    out.put("skipped_count", skipped);
    return ToolResult.structured(out);
  }

  private ToolResult skillInfo(SessionState session, JsonNode a) {
    String name = a.path("skill_name").asText("");
    Catalog catalog = service.catalog();
    Skill s = catalog.skill(name).orElse(null);
    if (s == null) {
      return ToolCallErrors.result(
          "SKILL_NOT_FOUND", "no skill named '" + name + "'", "call search_skills to find one");
    }
    ObjectNode out = summary(s, session.view());
    out.put("version", s.manifest().extensions().version());
    out.put("path", s.location().directory().toString());
    out.set("metadata", JSON.valueToTree(s.manifest().metadata()));
    out.put("instructions", s.manifest().body());
    ArrayNode tools = out.putArray("tool_list");
    for (ToolSpec t : s.tools()) {
      ObjectNode o = tools.addObject();
      o.put("name", t.name());
      o.put("description", t.description());
      o.set("input_schema", t.inputSchema());
      if (t.outputSchema() != null) {
        o.set("output_schema", t.outputSchema());
      }
      if (t.group() != null) {
        o.put("group", t.group());
      }
      o.put("execution", t.execution().name().toLowerCase(Locale.ROOT));
      o.put("binding", t.binding().describe());
    }
    ArrayNode groups = out.putArray("groups");
    for (GroupSpec g : s.groups()) {
      ObjectNode o = groups.addObject();
      o.put("name", g.name());
      o.put("description", g.description());
      o.put("default_active", g.defaultActive());
      o.put("active", session.view().activeGroups(s.name()).contains(g.name()));
      ArrayNode members = o.putArray("tools");
      g.tools().forEach(members::add);
    }
    ArrayNode prompts = out.putArray("prompts");
    for (PromptSpec p : s.prompts()) {
      prompts.addObject().put("name", p.name()).put("description", p.description());
    }
    ArrayNode workflows = out.putArray("workflows");
    for (WorkflowSpec w : s.workflows()) {
      workflows.addObject().put("name", w.name()).put("description", w.description());
    }
    ArrayNode diags = out.putArray("diagnostics");
    for (Diagnostic d : catalog.diagnostics()) {
      if (s.name().equals(d.skill())) {
        diags.add(d.format());
      }
    }
    if (s.shadowedBy() != null) {
      out.put("shadowed_by", s.shadowedBy());
    }
    return ToolResult.structured(out);
  }

  private ToolResult loadSkill(SessionState session, JsonNode a) {
    List<String> names = new ArrayList<>();
    if (a.hasNonNull("skill_name")) {
      names.add(a.get("skill_name").asText());
    }
    a.path("skill_names").forEach(n -> names.add(n.asText()));
    if (names.isEmpty()) {
      return ToolCallErrors.result(
          "INVALID_ARGUMENTS",
          "give skill_name or skill_names",
          "for example {\"skill_name\": \"x\"}");
    }
    Catalog catalog = service.catalog();
    SessionView view = session.view();
    SessionView.LoadOutcome outcome =
        view.load(
            catalog,
            names,
            a.path("activate_groups").asBoolean(true),
            // Host adapters decide whether the skill can run in this server.
            skill -> service.hosts().refusal(skill));
    if (!outcome.loaded().isEmpty()) {
      session.notifyListChanged();
    }
    ObjectNode out = NODES.objectNode();
    ArrayNode loaded = out.putArray("loaded");
    outcome.loaded().forEach(loaded::add);
    ArrayNode tools = out.putArray("tools");
    for (ListedTool t : service.listing(view).all(catalog, view)) {
      if (t.kind() == ListedTool.Kind.TOOL
          && (outcome.loaded().contains(t.skill())
              || outcome.alreadyLoaded().contains(t.skill()))) {
        tools.addObject().put("name", t.name()).put("description", t.spec().description());
      }
    }
    ArrayNode already = out.putArray("already_loaded");
    outcome.alreadyLoaded().forEach(already::add);
    if (!outcome.failures().isEmpty()) {
      ObjectNode failed = out.putObject("failed");
      outcome.failures().forEach(failed::put);
      if (outcome.loaded().isEmpty() && outcome.alreadyLoaded().isEmpty()) {
        String message = String.join("; ", outcome.failures().values());
        return new ToolResult(
            List.of(new dev.skillport.api.tool.Content.Text("SKILL_NOT_LOADABLE: " + message)),
            out.put("code", "SKILL_NOT_LOADABLE").put("message", message),
            true);
      }
    }
    return ToolResult.structured(out);
  }

  private ToolResult unloadSkill(SessionState session, JsonNode a) {
    String name = a.path("skill_name").asText("");
    String canonical = service.catalog().skill(name).map(Skill::name).orElse(name);
    Catalog catalog = service.catalog();
    int before = countTools(catalog, session.view(), canonical);
    boolean changed = session.view().unload(canonical);
    if (changed) {
      session.notifyListChanged();
    }
    ObjectNode out = NODES.objectNode();
    out.put("unloaded", changed);
    out.put("tools_removed", changed ? before : 0);
    return ToolResult.structured(out);
  }

  private int countTools(Catalog catalog, SessionView view, String skill) {
    return (int)
        service.listing(view).all(catalog, view).stream()
            .filter(t -> t.kind() == ListedTool.Kind.TOOL && skill.equals(t.skill()))
            .count();
  }

  private ToolResult setGroup(SessionState session, JsonNode a, boolean active) {
    String group = a.path("group").asText("");
    String skillName = a.hasNonNull("skill_name") ? a.get("skill_name").asText() : null;
    Catalog catalog = service.catalog();
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
      return ToolCallErrors.result(
          "GROUP_NOT_FOUND",
          "no loaded skill"
              + (skillName == null ? "" : " named '" + skillName + "'")
              + " has a group '"
              + group
              + "'",
          "load the skill first; get_skill_info lists its groups");
    }
    if (owners.size() > 1) {
      return ToolCallErrors.result(
          "GROUP_AMBIGUOUS",
          "several loaded skills have a group '" + group + "'",
          "pass skill_name");
    }
    Skill owner = owners.get(0);
    boolean changed = view.setGroupActive(owner.name(), group, active);
    if (changed) {
      session.notifyListChanged();
    }
    ObjectNode out = NODES.objectNode();
    out.put("group", group);
    out.put("skill_name", owner.name());
    out.put("changed", changed);
    ArrayNode activeGroups = out.putArray("active_groups");
    view.activeGroups(owner.name()).stream().sorted().forEach(activeGroups::add);
    return ToolResult.structured(out);
  }

  private ToolResult searchTools(SessionState session, JsonNode a) {
    String query = a.path("query").asText("");
    boolean includeUnloaded = a.path("include_unloaded_skills").asBoolean(true);
    int limit = Math.max(1, Math.min(100, a.path("limit").asInt(20)));
    Catalog catalog = service.catalog();
    SessionView view = session.view();
    Map<String, ListedTool> listedBySpec = new LinkedHashMap<>();
    for (ListedTool t : service.listing(view).all(catalog, view)) {
      if (t.kind() == ListedTool.Kind.TOOL) {
        listedBySpec.put(t.skill() + "/" + t.spec().name(), t);
      }
    }
    ObjectNode out = NODES.objectNode();
    ArrayNode tools = out.putArray("tools");
    Map<String, ArrayNode> candidates = new LinkedHashMap<>();
    for (SkillSearchIndex.ToolHit hit : catalog.searchIndex().searchTools(query, limit * 4)) {
      String skill = hit.skill().name();
      if (view.isLoaded(skill)) {
        if (tools.size() >= limit) {
          continue;
        }
        ListedTool listed = listedBySpec.get(skill + "/" + hit.tool().name());
        ObjectNode o = tools.addObject();
        o.put("name", listed != null ? listed.name() : skill + "__" + hit.tool().name());
        o.put("skill_name", skill);
        o.put("description", hit.tool().description());
        o.put("active", listed != null);
      } else if (includeUnloaded && hit.skill().state() == SkillState.AVAILABLE) {
        candidates.computeIfAbsent(skill, k -> NODES.arrayNode()).add(hit.tool().name());
      }
    }
    ArrayNode cands = out.putArray("skill_candidates");
    candidates.forEach(
        (skill, matching) -> {
          ObjectNode o = cands.addObject();
          o.put("skill_name", skill);
          o.set("matching_tools", matching);
          o.put("load_hint", "Call load_skill(\"" + skill + "\")");
        });
    return ToolResult.structured(out);
  }
}
