package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.RuntimeSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.CurrentBindings;
import dev.skillport.runtime.DynamicTools;
import dev.skillport.runtime.HostExecutors;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.ResultRenderer;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The platform's own tools (mcp-surface.md section 4), listed first in every session. Their results
 * have dcc-mcp-core's wire shapes field for field, so agent prompts written for it keep working;
 * fields of our own are added beside them, never instead of them.
 */
public final class CoreTools {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The core tools that change what the calling session lists: a session's later requests wait for
   * them (see {@code docs/running.md}).
   */
  public static final Set<String> LISTING_CHANGES =
      Set.of("load_skill", "unload_skill", "activate_tool_group", "deactivate_tool_group");

  /** The core tools in listing order; they need no instance, so listings are made first. */
  public static final List<CoreTool> DEFINITIONS =
      List.of(
          definition(
              "search_skills",
              "Find skills by keyword (stemmed, typo- and prefix-tolerant), tags, host or scope. An"
                  + " empty query browses. Then call load_skill to get a skill's tools.",
              """
        {"type":"object","properties":{
          "query":{"type":"string","description":"keywords"},
          "tags":{"type":"array","items":{"type":"string"},"description":"all must match"},
          "dcc":{"type":"string"},"scope":{"type":"string","enum":["repo","user","team","system","admin"]},
          "limit":{"type":"integer","minimum":1,"maximum":100,"default":20},
          "include_hidden":{"type":"boolean","default":false}}}""",
              true),
          definition(
              "list_skills",
              "List skills with their status (loaded, unloaded, pending_deps, skipped, shadowed,"
                  + " denied)."
                  + " fields picks the item fields; limit/offset page through.",
              """
        {"type":"object","properties":{
          "status":{"type":"string","enum":["all","loaded","unloaded","discovered","pending_deps","error","skipped","shadowed","denied"],"default":"all"},
          "limit":{"type":"integer","minimum":1,"maximum":50},
          "offset":{"type":"integer","minimum":0,"default":0},
          "fields":{"type":"array","items":{"type":"string"}}}}""",
              true),
          definition(
              "get_skill_info",
              "Show a skill's metadata, its SKILL.md, tools with full schemas, groups, scripts,"
                  + " dependencies, prompts, workflows and diagnostics.",
              """
        {"type":"object","properties":{"skill_name":{"type":"string"}},"required":["skill_name"]}""",
              true),
          definition(
              "load_skill",
              "Load skills (and their dependencies) into this session so their tools are listed;"
                  + " tool_group also activates that group.",
              """
        {"type":"object","properties":{
          "skill_name":{"type":"string"},
          "skill_names":{"type":"array","items":{"type":"string"}},
          "activate_groups":{"type":"boolean","default":true},
          "tool_group":{"type":"string","description":"a group to activate as well (aliases group, group_name)"}}}""",
              false),
          definition(
              "unload_skill",
              "Remove a skill's tools from this session.",
              """
        {"type":"object","properties":{"skill_name":{"type":"string"}},"required":["skill_name"]}""",
              false),
          definition(
              "activate_tool_group",
              "Activate a tool group of a loaded skill so its tools are listed.",
              """
        {"type":"object","properties":{
          "group_name":{"type":"string","description":"the group (alias group)"},
          "skill_name":{"type":"string"}}}""",
              false),
          definition(
              "deactivate_tool_group",
              "Deactivate a tool group of a loaded skill.",
              """
        {"type":"object","properties":{
          "group_name":{"type":"string","description":"the group (alias group)"},
          "skill_name":{"type":"string"}}}""",
              false),
          definition(
              "search_tools",
              "Find tools by keyword across loaded skills and, optionally, skills not loaded yet.",
              """
        {"type":"object","properties":{
          "query":{"type":"string"},
          "dcc":{"type":"string"},
          "include_disabled":{"type":"boolean","default":false},
          "include_unloaded_skills":{"type":"boolean","default":true},
          "include_stubs":{"type":"boolean","default":false},
          "limit":{"type":"integer","minimum":1,"maximum":100,"default":25}},
         "required":["query"]}""",
              true),
          definition(
              "list_roots",
              "List the filesystem roots the client shares with this server (MCP roots).",
              """
        {"type":"object","properties":{}}""",
              true),
          definition(
              "jobs_get_status",
              "Show a job's status and progress, and its result once finished (include_result, true by"
                  + " default); include_logs adds the lines it logged (the last 200, at most 64 KiB).",
              """
        {"type":"object","properties":{
          "job_id":{"type":"string"},"include_result":{"type":"boolean","default":true},
          "include_logs":{"type":"boolean","default":false}},
         "required":["job_id"]}""",
              true),
          definition(
              "jobs_cancel",
              "Cancel a pending or running job and its child jobs.",
              """
        {"type":"object","properties":{"job_id":{"type":"string"}},"required":["job_id"]}""",
              false),
          definition(
              "jobs_cleanup",
              "Remove finished jobs older than older_than_hours (24 by default).",
              """
        {"type":"object","properties":{"older_than_hours":{"type":"number","minimum":0,"default":24}}}""",
              false),
          definition(
              "register_tool",
              "Register a dynamic tool for this caller (and session): tool_spec names a skill tool"
                  + " to call (tool: <skill>__<tool>, with preset arguments) under its own name and"
                  + " parameters. Call it by the returned tool_name (2026-07-28: with call_tool);"
                  + " it is never listed, and expires after ttl_secs (3600).",
              """
        {"type":"object","properties":{
          "tool_spec":{"type":"object","properties":{
            "name":{"type":"string","description":"base name: [a-zA-Z0-9_-], at most 52 characters"},
            "description":{"type":"string"},
            "tool":{"type":"string","description":"the qualified name of the skill tool it calls"},
            "arguments":{"type":"object","description":"preset arguments of tool; a call's own arguments override them"},
            "code":{"type":"string","description":"a Python body using params; only where the server allows code"},
            "language":{"type":"string","enum":["python"],"default":"python"},
            "parameters":{"type":"object","description":"JSON Schema properties of the tool's inputs"},
            "required":{"type":"array","items":{"type":"string"}},
            "dcc":{"type":"string"},
            "timeout_sec":{"type":"integer","minimum":1,"default":30},
            "read_only_hint":{"type":"boolean","default":true},
            "destructive_hint":{"type":"boolean","default":false},
            "ttl_secs":{"type":"integer","minimum":1,"default":3600}},
           "required":["name","description"]}},
         "required":["tool_spec"]}""",
              false,
              false),
          definition(
              "deregister_tool",
              "Remove one of this caller's dynamic tools (succeeds whether or not it still exists).",
              """
        {"type":"object","properties":{"tool_name":{"type":"string","description":"as register_tool returned it (dyn__...)"}},"required":["tool_name"]}""",
              false),
          definition(
              "list_dynamic_tools",
              "List this caller's dynamic tools with their input schemas and time to live.",
              """
        {"type":"object","properties":{}}""",
              true));

  private final Map<String, CoreToolCall> impls = new HashMap<>();

  /**
   * @param holder the catalog, for a load that started a bridge and republished it
   * @param bindings the handlers of each generation's tools, for their diagnostics
   * @param listed what sessions list, as the MCP surface renders it
   * @param servers the servers of bridge skills
   * @param jobs the jobs the {@code jobs_*} tools read and cancel
   * @param hosts whether a skill may run in this server
   * @param files reads a skill's SKILL.md as it is on disk now
   * @param redactor masks secrets in the instructions and metadata a skill's info shows
   * @param results renders a finished job's result as {@code jobs_get_status} shows it
   * @param dynamic the tools callers registered with {@code register_tool}
   */
  public CoreTools(
      CatalogHolder holder,
      CurrentBindings bindings,
      ListedEntries listed,
      SkillServers servers,
      JobScheduler jobs,
      HostExecutors hosts,
      SkillFileReader files,
      Redactor redactor,
      ResultRenderer results,
      DynamicTools dynamic) {
    impls.put("search_skills", new SearchSkills());
    impls.put("list_skills", new ListSkills());
    impls.put("get_skill_info", new GetSkillInfo(bindings, listed, files, redactor));
    impls.put("load_skill", new LoadSkill(holder, listed, servers, hosts));
    impls.put("unload_skill", new UnloadSkill(listed, servers));
    impls.put("activate_tool_group", new SetToolGroup(true));
    impls.put("deactivate_tool_group", new SetToolGroup(false));
    impls.put("search_tools", new SearchTools(listed));
    impls.put("list_roots", new ListRoots());
    impls.put("jobs_get_status", new JobsGetStatus(jobs, results));
    impls.put("jobs_cancel", new JobsCancel(jobs));
    impls.put("jobs_cleanup", new JobsCleanup(jobs));
    impls.put("register_tool", new RegisterTool(dynamic));
    impls.put("deregister_tool", new DeregisterTool(dynamic));
    impls.put("list_dynamic_tools", new ListDynamicTools(dynamic));
    for (CoreTool tool : DEFINITIONS) {
      if (!impls.containsKey(tool.name())) {
        throw new IllegalStateException("core tool '" + tool.name() + "' has no implementation");
      }
    }
  }

  /** Whether {@code name} is one of the core tools. */
  public boolean has(String name) {
    return impls.containsKey(name);
  }

  /** Runs core tool {@code name} on {@code catalog}, the snapshot the call resolved on. */
  public ToolResult call(
      String name, Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return impls.get(name).call(catalog, session, args, ctx == null ? ToolContext.NONE : ctx);
  }

  private static CoreTool definition(
      String name, String description, String schema, boolean readOnly) {
    return definition(name, description, schema, readOnly, true);
  }

  private static CoreTool definition(
      String name, String description, String schema, boolean readOnly, boolean idempotent) {
    ObjectNode annotations = NODES.objectNode().put("readOnlyHint", readOnly);
    if (!readOnly) {
      annotations.put("destructiveHint", false).put("idempotentHint", idempotent);
    }
    return new CoreTool(name, description, parse(schema), annotations);
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ToolResult invalid(String message, String hint) {
    return ToolResult.failure(ToolFailureCode.INVALID_ARGUMENTS, message, hint);
  }

  static String searchHint(Skill s) {
    String hint = s.manifest().extensions().discovery().searchHint();
    return hint == null ? s.manifest().description() : hint;
  }

  /** The wire status of a skill in a session: loaded or unloaded for an available skill. */
  static String status(Skill s, SessionView view) {
    if (s.state() == SkillState.AVAILABLE) {
      return view.isLoaded(s.name()) ? "loaded" : "unloaded";
    }
    return s.state().label();
  }

  static List<String> missingDependencies(Skill s, Catalog catalog) {
    List<String> missing = new ArrayList<>();
    for (String dep : s.manifest().extensions().depends()) {
      Skill d = catalog.skill(dep).orElse(null);
      if (d == null || d.state() != SkillState.AVAILABLE) {
        missing.add(dep);
      }
    }
    return missing;
  }

  static ObjectNode groupInfo(Skill s, GroupSpec g, SessionView view) {
    ObjectNode o = NODES.objectNode();
    o.put("name", g.name());
    o.put("description", g.description());
    o.set("tools", strings(g.tools()));
    o.put("default_active", g.defaultActive());
    o.put("active", view.isLoaded(s.name()) && view.activeGroups(s.name()).contains(g.name()));
    return o;
  }

  static ArrayNode runtimes(Skill s) {
    ArrayNode out = NODES.arrayNode();
    for (RuntimeSpec r : s.runtimes()) {
      ObjectNode o = out.addObject().put("name", r.name());
      r.attributes().forEach((k, v) -> o.set(k, JSON.valueToTree(v)));
    }
    return out;
  }

  /** The names under which the session lists the tools of {@code skills} now, in listing order. */
  static List<String> listedNames(
      ListedEntries listed, Catalog catalog, SessionView view, Set<String> skills) {
    List<String> out = new ArrayList<>();
    for (ListedTool t : listed.session(catalog, view)) {
      if (t.kind() == ListedTool.Kind.TOOL && skills.contains(t.skill())) {
        out.add(t.name());
      }
    }
    return out;
  }

  /**
   * The code of a load_skill that loaded nothing: {@code SKILL_DENIED} when the operator denies
   * every skill it named, else {@code SKILL_NOT_LOADABLE}.
   */
  static ToolFailureCode loadFailure(Catalog catalog, List<String> names) {
    boolean allDenied =
        names.stream()
            .allMatch(n -> catalog.skill(n).map(s -> s.state() == SkillState.DENIED).orElse(false));
    return allDenied ? ToolFailureCode.SKILL_DENIED : ToolFailureCode.SKILL_NOT_LOADABLE;
  }

  /** The operator's reason a {@link SkillState#DENIED} skill is denied, from its diagnostic. */
  static String deniedReason(Skill s, Catalog catalog) {
    for (Diagnostic d : catalog.diagnostics()) {
      if (d.code() == DiagnosticCode.SKILL_DENIED && s.name().equals(d.skill())) {
        return d.message();
      }
    }
    return "denied by the server's configuration";
  }

  static String firstText(JsonNode a, String... keys) {
    for (String k : keys) {
      if (a.hasNonNull(k) && !a.get(k).asText().isBlank()) {
        return a.get(k).asText().strip();
      }
    }
    return null;
  }

  static ToolResult noSuchJob(String id) {
    return ToolResult.failure(
        ToolFailureCode.JOB_NOT_FOUND,
        "no job with id '" + id + "'",
        "job ids come from an async call's result");
  }

  static ArrayNode strings(List<String> values) {
    ArrayNode out = NODES.arrayNode();
    values.forEach(out::add);
    return out;
  }
}
