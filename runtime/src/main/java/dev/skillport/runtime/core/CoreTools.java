package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.PathArgument;
import dev.skillport.model.skill.PathPlace;
import dev.skillport.model.skill.PromptSpec;
import dev.skillport.model.skill.RuntimeSpec;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.ToolNames;
import dev.skillport.registry.search.SkillHit;
import dev.skillport.registry.search.SkillQuery;
import dev.skillport.registry.search.SkillSearchIndex;
import dev.skillport.runtime.CurrentBindings;
import dev.skillport.runtime.HostExecutors;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.OwnedJobs;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The platform's own tools (mcp-surface.md section 4), listed first in every session. Their results
 * have dcc-mcp-core's wire shapes field for field, so agent prompts written for it keep working;
 * fields of our own are added beside them, never instead of them.
 */
public final class CoreTools {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();

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

  /**
   * The core tools that change what the calling session lists: a session's later requests wait for
   * them (see {@code docs/running.md}).
   */
  public static final Set<String> LISTING_CHANGES =
      Set.of("load_skill", "unload_skill", "activate_tool_group", "deactivate_tool_group");

  private static final int SUMMARY_CHARS = 200;
  private static final long MAX_MARKDOWN_BYTES = 1 << 20;

  /** Tools, groups and registered names get_skill_info lists at most; the rest are counted. */
  static final int MAX_INFO_ITEMS = 1000;

  /** Diagnostics get_skill_info lists at most; the rest are counted. */
  static final int MAX_INFO_DIAGNOSTICS = 200;

  private static final Duration ROOTS_TIMEOUT = Duration.ofSeconds(30);

  /** One core tool's code. */
  @FunctionalInterface
  private interface Impl {
    ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx);
  }

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
              false));

  private final CatalogHolder holder;
  private final CurrentBindings bindings;
  private final ListedEntries listed;
  private final SkillServers servers;
  private final JobScheduler jobs;
  private final HostExecutors hosts;
  private final SkillFileReader files;
  private final Map<String, Impl> impls = new HashMap<>();

  /**
   * @param holder the catalog, for a load that started a bridge and republished it
   * @param bindings the handlers of each generation's tools, for their diagnostics
   * @param listed what sessions list, as the MCP surface renders it
   * @param servers the servers of bridge skills
   * @param jobs the jobs the {@code jobs_*} tools read and cancel
   * @param hosts whether a skill may run in this server
   * @param files reads a skill's SKILL.md as it is on disk now
   */
  public CoreTools(
      CatalogHolder holder,
      CurrentBindings bindings,
      ListedEntries listed,
      SkillServers servers,
      JobScheduler jobs,
      HostExecutors hosts,
      SkillFileReader files) {
    this.holder = holder;
    this.bindings = bindings;
    this.listed = listed;
    this.servers = servers;
    this.jobs = jobs;
    this.hosts = hosts;
    this.files = files;
    impls.put("search_skills", (k, s, a, c) -> searchSkills(k, s, a));
    impls.put("list_skills", (k, s, a, c) -> listSkills(k, s, a));
    impls.put("get_skill_info", (k, s, a, c) -> skillInfo(k, s, a));
    impls.put("load_skill", (k, s, a, c) -> loadSkill(k, s, a));
    impls.put("unload_skill", (k, s, a, c) -> unloadSkill(k, s, a));
    impls.put("activate_tool_group", (k, s, a, c) -> setGroup(k, s, a, true));
    impls.put("deactivate_tool_group", (k, s, a, c) -> setGroup(k, s, a, false));
    impls.put("search_tools", (k, s, a, c) -> searchTools(k, s, a));
    impls.put("list_roots", (k, s, a, c) -> listRoots(c));
    impls.put("jobs_get_status", (k, s, a, c) -> jobStatus(owned(c), a));
    impls.put("jobs_cancel", (k, s, a, c) -> cancelJob(owned(c), a));
    impls.put("jobs_cleanup", (k, s, a, c) -> cleanupJobs(owned(c), a));
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
    ObjectNode annotations = NODES.objectNode().put("readOnlyHint", readOnly);
    if (!readOnly) {
      annotations.put("destructiveHint", false).put("idempotentHint", true);
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

  private static ToolResult invalid(String message, String hint) {
    return ToolResult.failure(ToolFailureCode.INVALID_ARGUMENTS, message, hint);
  }

  // ---- search_skills ----------------------------------------------------------------------

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

  private static String searchHint(Skill s) {
    String hint = s.manifest().extensions().discovery().searchHint();
    return hint == null ? s.manifest().description() : hint;
  }

  /** The wire status of a skill in a session: loaded or unloaded for an available skill. */
  private static String status(Skill s, SessionView view) {
    if (s.state() == SkillState.AVAILABLE) {
      return view.isLoaded(s.name()) ? "loaded" : "unloaded";
    }
    return s.state().label();
  }

  // ---- list_skills ------------------------------------------------------------------------

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

  private static List<String> missingDependencies(Skill s, Catalog catalog) {
    List<String> missing = new ArrayList<>();
    for (String dep : s.manifest().extensions().depends()) {
      Skill d = catalog.skill(dep).orElse(null);
      if (d == null || d.state() != SkillState.AVAILABLE) {
        missing.add(dep);
      }
    }
    return missing;
  }

  private static String abbreviate(String text, int max) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= max ? flat : flat.substring(0, max - 1) + "…";
  }

  // ---- get_skill_info ---------------------------------------------------------------------

  private ToolResult skillInfo(Catalog catalog, SessionState session, JsonNode a) {
    String name = a.path("skill_name").asText("");
    Skill s = catalog.skill(name).orElse(null);
    if (s == null) {
      return ToolResult.failure(
          ToolFailureCode.SKILL_NOT_FOUND,
          "no skill named '" + name + "'",
          "call search_skills to find one");
    }
    SessionView view = session.view();
    DccExtensions ext = s.manifest().extensions();
    List<String> missing = missingDependencies(s, catalog);
    ObjectNode out = NODES.objectNode();
    out.put("name", s.name());
    out.put("description", s.manifest().description());
    out.set("tags", strings(ext.discovery().tags()));
    if (!ext.discovery().searchAliases().isEmpty()) {
      out.set("search_aliases", strings(ext.discovery().searchAliases()));
    }
    out.put("dcc", ext.dcc());
    out.put("version", ext.version());
    out.set("depends", strings(ext.depends()));
    out.put("skill_path", s.location().directory().toString());
    out.put("skill_md_path", s.location().skillFile().toString());
    out.put("markdown", markdown(s));
    out.set("scripts", scripts(s));
    ArrayNode tools = out.putArray("tools");
    for (ToolSpec t : first(s.tools(), out, "tools_omitted")) {
      tools.add(toolInfo(t));
    }
    ArrayNode groups = out.putArray("groups");
    for (GroupSpec g : first(s.groups(), out, "groups_omitted")) {
      groups.add(groupInfo(s, g, view));
    }
    out.put("state", status(s, view));
    if (!missing.isEmpty()) {
      out.set("missing_dependencies", strings(missing));
    }
    out.set(
        "registered_tools",
        strings(
            first(listedNames(catalog, view, Set.of(s.name())), out, "registered_tools_omitted")));
    out.put("scope", s.scope().label());
    out.put("implicit_invocation", ext.discovery().allowImplicitInvocation());
    out.put("dependency_count", ext.depends().size());
    if (!s.runtimes().isEmpty()) {
      out.set("runtimes", runtimes(s));
    }
    // Ours, beside upstream's fields.
    out.put("loaded", view.isLoaded(s.name()));
    out.put("tool_count", s.tools().size());
    out.put("search_hint", searchHint(s));
    out.put("layer", ext.discovery().layer().label());
    out.put("instructions", Redactor.shared().text(s.manifest().body()));
    out.set("metadata", Redactor.shared().keyed(JSON.valueToTree(s.manifest().metadata())));
    ArrayNode prompts = out.putArray("prompts");
    for (PromptSpec p : s.prompts()) {
      prompts.addObject().put("name", p.name()).put("description", p.description());
    }
    ArrayNode workflows = out.putArray("workflows");
    for (WorkflowSpec w : s.workflows()) {
      workflows.addObject().put("name", w.name()).put("description", w.description());
    }
    ArrayNode diags = out.putArray("diagnostics");
    int omitted = 0;
    List<Diagnostic> diagnostics = new ArrayList<>(catalog.diagnostics());
    diagnostics.addAll(bindings.of(catalog).diagnostics());
    for (Diagnostic d : diagnostics) {
      if (s.name().equals(d.skill())) {
        if (diags.size() < MAX_INFO_DIAGNOSTICS) {
          diags.add(d.format());
        } else {
          omitted++;
        }
      }
    }
    if (omitted > 0) {
      out.put("diagnostics_omitted", omitted);
    }
    if (s.shadowedBy() != null) {
      out.put("shadowed_by", s.shadowedBy());
    }
    if (s.state() == SkillState.DENIED) {
      out.put("denied_reason", deniedReason(s, catalog));
    }
    return ToolResult.structured(out);
  }

  /**
   * The first {@link #MAX_INFO_ITEMS} of {@code items}; how many more there are is put under {@code
   * omittedKey}, so a skill of a hundred thousand tools answers in bounded memory.
   */
  private static <T> List<T> first(List<T> items, ObjectNode out, String omittedKey) {
    if (items.size() <= MAX_INFO_ITEMS) {
      return items;
    }
    out.put(omittedKey, items.size() - MAX_INFO_ITEMS);
    return items.subList(0, MAX_INFO_ITEMS);
  }

  /**
   * SKILL.md as it is on disk now (a regular file of at most 1 MiB) and as {@code skill://} serves
   * it, secrets masked; else the instructions read at load time.
   */
  private String markdown(Skill s) {
    Path file = s.location().skillFile();
    try {
      return Redactor.shared()
          .skillMd(new String(files.read(file, MAX_MARKDOWN_BYTES), StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      // Changed or gone since the catalog was read: fall back to what was read then.
    }
    return Redactor.shared().text(s.manifest().body());
  }

  /** The regular files under the skill's {@code scripts/} folder, sorted, hidden ones left out. */
  private static ArrayNode scripts(Skill s) {
    ArrayNode out = NODES.arrayNode();
    Path dir = s.location().directory().resolve("scripts");
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return out;
    }
    try (Stream<Path> files = Files.walk(dir, 4)) {
      files
          .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
          .filter(p -> !dir.relativize(p).toString().startsWith("."))
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(p -> !p.toString().contains("__pycache__"))
          .sorted()
          .limit(1000)
          .forEach(p -> out.add(p.toString()));
    } catch (IOException | UncheckedIOException e) {
      // An unreadable folder lists what was read.
    }
    return out;
  }

  /** A tool with its full schemas, under the YAML key names of the tools file. */
  private static ObjectNode toolInfo(ToolSpec t) {
    ObjectNode o = NODES.objectNode();
    o.put("name", t.name());
    o.put("description", t.description());
    o.set("input_schema", t.inputSchema());
    if (t.outputSchema() != null) {
      o.set("output_schema", t.outputSchema());
    }
    ObjectNode annotations = annotationsInfo(t.annotations());
    if (annotations.size() > 0) {
      o.set("annotations", annotations);
    }
    if (t.group() != null) {
      o.put("group", t.group());
    }
    o.put("execution", t.execution().name().toLowerCase(Locale.ROOT));
    if (t.timeoutHintSecs() != null) {
      o.put("timeout_hint_secs", t.timeoutHintSecs());
    }
    o.put("thread_affinity", t.affinity().name().toLowerCase(Locale.ROOT));
    if (!t.nextTools().onSuccess().isEmpty() || !t.nextTools().onFailure().isEmpty()) {
      ObjectNode next = o.putObject("next_tools");
      next.set("on_success", strings(t.nextTools().onSuccess()));
      next.set("on_failure", strings(t.nextTools().onFailure()));
    }
    if (!t.requiredCapabilities().isEmpty()) {
      o.set("required_capabilities", strings(t.requiredCapabilities()));
    }
    if (!t.searchAliases().isEmpty()) {
      o.set("search_aliases", strings(t.searchAliases()));
    }
    t.extras().forEach((k, v) -> o.set(k, JSON.valueToTree(v)));
    if (!t.paths().isEmpty()) {
      ObjectNode paths = o.putObject("paths");
      for (PathArgument p : t.paths()) {
        paths
            .putObject(p.argument())
            .set("inside", strings(p.inside().stream().map(PathPlace::label).toList()));
      }
    }
    o.put("binding", t.binding().describe());
    return o;
  }

  private static ObjectNode annotationsInfo(ToolAnnotations a) {
    ObjectNode o = NODES.objectNode();
    if (a.title() != null) {
      o.put("title", a.title());
    }
    putHint(o, "read_only_hint", a.readOnlyHint());
    putHint(o, "destructive_hint", a.destructiveHint());
    putHint(o, "idempotent_hint", a.idempotentHint());
    putHint(o, "open_world_hint", a.openWorldHint());
    putHint(o, "deferred_hint", a.deferredHint());
    return o;
  }

  private static void putHint(ObjectNode o, String key, Boolean value) {
    if (value != null) {
      o.put(key, value);
    }
  }

  private static ObjectNode groupInfo(Skill s, GroupSpec g, SessionView view) {
    ObjectNode o = NODES.objectNode();
    o.put("name", g.name());
    o.put("description", g.description());
    o.set("tools", strings(g.tools()));
    o.put("default_active", g.defaultActive());
    o.put("active", view.isLoaded(s.name()) && view.activeGroups(s.name()).contains(g.name()));
    return o;
  }

  private static ArrayNode runtimes(Skill s) {
    ArrayNode out = NODES.arrayNode();
    for (RuntimeSpec r : s.runtimes()) {
      ObjectNode o = out.addObject().put("name", r.name());
      r.attributes().forEach((k, v) -> o.set(k, JSON.valueToTree(v)));
    }
    return out;
  }

  /** The names under which the session lists the tools of {@code skills} now, in listing order. */
  private List<String> listedNames(Catalog catalog, SessionView view, Set<String> skills) {
    List<String> out = new ArrayList<>();
    for (ListedTool t : this.listed.session(catalog, view)) {
      if (t.kind() == ListedTool.Kind.TOOL && skills.contains(t.skill())) {
        out.add(t.name());
      }
    }
    return out;
  }

  // ---- load_skill / unload_skill ----------------------------------------------------------

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
    List<String> registered = listedNames(catalog, view, requested);
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
    for (ListedTool t : this.listed.session(catalog, view)) {
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
      return new ToolResult(List.of(new Content.Text(code.name() + ": " + message)), out, true);
    }
    return ToolResult.structured(out);
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
  private static String deniedReason(Skill s, Catalog catalog) {
    for (Diagnostic d : catalog.diagnostics()) {
      if (d.code() == DiagnosticCode.SKILL_DENIED && s.name().equals(d.skill())) {
        return d.message();
      }
    }
    return "denied by the server's configuration";
  }

  private static String firstText(JsonNode a, String... keys) {
    for (String k : keys) {
      if (a.hasNonNull(k) && !a.get(k).asText().isBlank()) {
        return a.get(k).asText().strip();
      }
    }
    return null;
  }

  private ToolResult unloadSkill(Catalog catalog, SessionState session, JsonNode a) {
    String name = a.path("skill_name").asText("");
    String canonical = catalog.skill(name).map(Skill::name).orElse(name);
    int before = listedNames(catalog, session.view(), Set.of(canonical)).size();
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

  // ---- activate_tool_group / deactivate_tool_group ----------------------------------------

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

  // ---- search_tools -----------------------------------------------------------------------

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

  // ---- list_roots -------------------------------------------------------------------------

  private static ToolResult listRoots(ToolContext ctx) {
    ObjectNode out = NODES.objectNode();
    if (!ctx.clientSupports("roots")) {
      out.put("supports_roots", false);
      out.put("count", 0);
      out.putArray("roots");
      return ToolResult.structured(out);
    }
    out.put("supports_roots", true);
    ArrayNode roots = NODES.arrayNode();
    try {
      JsonNode result = ctx.request("roots/list", NODES.objectNode());
      result.path("roots").forEach(roots::add);
    } catch (ClientRequestException e) {
      // The client declared roots but did not give them: a failure, not an empty list of roots.
      return ToolResult.failure(
          ToolFailureCode.CLIENT_REQUEST_FAILED,
          e.getMessage(),
          e.reason() == ClientRequestException.Reason.TIMED_OUT
              ? "the client declared the roots capability but did not answer roots/list; the"
                  + " server's limit is serve --client-request-timeout"
              : null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ToolResult.failure(ToolFailureCode.CANCELLED, "the call was interrupted", null);
    }
    out.put("count", roots.size());
    out.set("roots", roots);
    return ToolResult.structured(out);
  }

  // ---- jobs -------------------------------------------------------------------------------

  /** The jobs the calling principal owns: the only ones the {@code jobs_*} tools reach. */
  private OwnedJobs owned(ToolContext ctx) {
    return new OwnedJobs(jobs, ctx.principal());
  }

  private static ToolResult jobStatus(OwnedJobs jobs, JsonNode a) {
    String id = a.path("job_id").asText("");
    boolean withResult = a.path("include_result").asBoolean(true);
    boolean withLogs = a.path("include_logs").asBoolean(false);
    return jobs.status(id)
        .map(
            job -> {
              ObjectNode out = job.toWire(withResult);
              if (withLogs) {
                out.set("logs", jobs.logs(id).orElseGet(CoreTools::logsNotKept));
              }
              return ToolResult.structured(out);
            })
        .orElseGet(() -> noSuchJob(id));
  }

  /** The logs of a job this run did not start, or started too long ago: none kept. */
  private static ObjectNode logsNotKept() {
    ObjectNode o = NODES.objectNode();
    o.putArray("lines");
    return o.put("truncated", false).put("dropped_lines", 0).put("kept", false);
  }

  private static ToolResult cancelJob(OwnedJobs jobs, JsonNode a) {
    String id = a.path("job_id").asText("");
    if (jobs.status(id).isEmpty()) {
      return noSuchJob(id);
    }
    boolean cancelled = jobs.cancel(id);
    return ToolResult.structured(NODES.objectNode().put("job_id", id).put("cancelled", cancelled));
  }

  private static ToolResult cleanupJobs(OwnedJobs jobs, JsonNode a) {
    double hours = a.path("older_than_hours").asDouble(24);
    if (!(hours >= 0)) {
      return invalid("older_than_hours must not be negative", null);
    }
    int removed = jobs.cleanup(Duration.ofSeconds(Math.round(hours * 3600)));
    ObjectNode out = NODES.objectNode().put("removed", removed);
    if (hours == Math.rint(hours) && hours <= Integer.MAX_VALUE) {
      out.put("older_than_hours", (int) hours);
    } else {
      out.put("older_than_hours", hours);
    }
    return ToolResult.structured(out);
  }

  private static ToolResult noSuchJob(String id) {
    return ToolResult.failure(
        ToolFailureCode.JOB_NOT_FOUND,
        "no job with id '" + id + "'",
        "job ids come from an async call's result");
  }

  private static ArrayNode strings(List<String> values) {
    ArrayNode out = NODES.arrayNode();
    values.forEach(out::add);
    return out;
  }
}
