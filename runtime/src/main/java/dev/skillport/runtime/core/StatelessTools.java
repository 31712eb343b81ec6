package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.ToolNames;
import dev.skillport.runtime.CallRouter;
import dev.skillport.runtime.HostExecutors;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.StateSigner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The stateless era's versions of the core tools that change a session (mcp-surface.md section 9):
 * {@code load_skill} reads skills without loading anything, {@code activate_tool_group} returns a
 * signed handle instead of changing a list, and {@code call_tool} calls any tool of the catalog by
 * its qualified name. {@code unload_skill} and {@code deactivate_tool_group} have nothing to undo
 * there and are not listed.
 */
public final class StatelessTools {
  static final String CALL_TOOL = CallRouter.CALL_TOOL;
  static final String LOAD_SKILL = "load_skill";
  static final String ACTIVATE_GROUP = "activate_tool_group";

  /** Core tools of the session era that the stateless era lists in another form, or not at all. */
  static final Set<String> REPLACED =
      Set.of(LOAD_SKILL, "unload_skill", ACTIVATE_GROUP, "deactivate_tool_group");

  private static final String GROUP_PURPOSE = "skillport/group-activation";
  private static final Duration GROUP_TTL = Duration.ofHours(24);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final CoreTool LOAD_SKILL_TOOL =
      new CoreTool(
          LOAD_SKILL,
          "Read skills (and their dependencies): their instructions and every tool with its full"
              + " input schema and annotations. Nothing is loaded: every tool is callable at once,"
              + " by its listed name or with call_tool.",
          parse(
              """
                {"type":"object","properties":{
                  "skill_name":{"type":"string"},
                  "skill_names":{"type":"array","items":{"type":"string"}},
                  "activate_groups":{"type":"boolean","default":true}}}"""),
          NODES.objectNode().put("readOnlyHint", true));
  private static final CoreTool ACTIVATE_GROUP_TOOL =
      new CoreTool(
          ACTIVATE_GROUP,
          "Activate a tool group of a skill: returns a group_handle to pass to call_tool when"
              + " calling the group's tools (valid 24 h, for this caller).",
          parse(
              """
                {"type":"object","properties":{
                  "group":{"type":"string"},"group_name":{"type":"string"},
                  "skill_name":{"type":"string"}}}"""),
          NODES.objectNode().put("readOnlyHint", true));
  private static final CoreTool CALL_TOOL_TOOL =
      new CoreTool(
          CALL_TOOL,
          "Call any tool of any available skill by its qualified name <skill>__<tool> (as"
              + " load_skill and search_tools show it), with the same validation and guards as a"
              + " listed tool. The called tool's annotations come back in the result's _meta.",
          parse(
              """
                {"type":"object","properties":{
                  "name":{"type":"string","description":"qualified tool name, <skill>__<tool>"},
                  "arguments":{"type":"object","description":"the tool's arguments"},
                  "group_handle":{"type":"string","description":"from activate_tool_group, for a tool of a group that is not active by default"}},
                 "required":["name"]}"""),
          null);

  private final CatalogHolder holder;
  private final StateSigner signer;
  private final SkillServers servers;
  private final ListedEntries listed;
  private final HostExecutors hosts;

  /**
   * @param holder the catalog, for a load that started a bridge and republished it
   * @param signer signs and checks group handles
   * @param servers the servers of bridge skills
   * @param listed what stateless requests list, as the MCP surface renders it
   * @param hosts whether a skill may run in this server
   */
  public StatelessTools(
      CatalogHolder holder,
      StateSigner signer,
      SkillServers servers,
      ListedEntries listed,
      HostExecutors hosts) {
    this.holder = holder;
    this.signer = signer;
    this.servers = servers;
    this.listed = listed;
    this.hosts = hosts;
  }

  /** The core tools a stateless client lists: the session era's, with these in their place. */
  public static List<CoreTool> definitions(List<CoreTool> sessionEra) {
    List<CoreTool> out = new ArrayList<>();
    for (CoreTool tool : sessionEra) {
      switch (tool.name()) {
        case LOAD_SKILL -> out.add(LOAD_SKILL_TOOL);
        case ACTIVATE_GROUP -> out.add(ACTIVATE_GROUP_TOOL);
        default -> {
          if (!REPLACED.contains(tool.name())) {
            out.add(tool);
          }
        }
      }
    }
    out.add(CALL_TOOL_TOOL);
    return List.copyOf(out);
  }

  /** Whether {@code name} is one of the tools this class runs in the stateless era. */
  public boolean has(String name) {
    return name.equals(LOAD_SKILL) || name.equals(ACTIVATE_GROUP);
  }

  /** Runs {@code name} on {@code catalog}, the snapshot the call resolved on. */
  public ToolResult call(
      String name, Catalog catalog, SessionState state, JsonNode args, String principal) {
    return name.equals(LOAD_SKILL)
        ? loadSkill(catalog, state, args)
        : activateGroup(catalog, state, args, principal);
  }

  /** Whether {@code handle} activates {@code group} of {@code skill} for {@code principal}. */
  public boolean activates(String handle, String skill, String group, String principal) {
    if (handle == null) {
      return false;
    }
    Optional<ObjectNode> payload = signer.verify(GROUP_PURPOSE, handle);
    if (payload.isEmpty()) {
      return false;
    }
    ObjectNode p = payload.get();
    String owner = p.path("principal").isTextual() ? p.get("principal").asText() : null;
    if (!Principal.of(principal).owns(owner)) {
      return false;
    }
    return skill.equals(p.path("skill").asText(null)) && group.equals(p.path("group").asText(null));
  }

  private ToolResult loadSkill(Catalog snapshot, SessionState state, JsonNode a) {
    List<String> names = new ArrayList<>();
    if (a.hasNonNull("skill_name")) {
      names.add(a.get("skill_name").asText());
    }
    a.path("skill_names").forEach(n -> names.add(n.asText()));
    if (names.isEmpty()) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS,
          "give skill_name or skill_names",
          "for example {\"skill_name\": \"x\"}");
    }
    // A bridge whose tools are not known yet is started now, or refused with the operator's hint;
    // a load that involves a bridge reads the catalog its start published.
    Map<String, String> bridgeRefusals = servers.prepare(names);
    Catalog catalog = SkillServers.involvesBridge(snapshot, names) ? holder.current() : snapshot;
    Map<String, String> callNames = callNames(catalog, state);
    Set<String> ready = new LinkedHashSet<>();
    ObjectNode errors = NODES.objectNode();
    for (String requested : names) {
      Skill skill = catalog.skill(requested).orElse(null);
      String problem = problem(requested, skill, state, bridgeRefusals);
      if (problem == null) {
        for (String dep : catalog.loadOrder(skill.name())) {
          String depProblem = problem(dep, catalog.skill(dep).orElse(null), state, bridgeRefusals);
          if (depProblem != null) {
            problem = "dependency " + dep + ": " + depProblem;
            break;
          }
        }
      }
      if (problem != null) {
        errors.put(requested, problem);
      } else {
        ready.addAll(catalog.loadOrder(skill.name()));
      }
    }
    ObjectNode out = NODES.objectNode();
    out.put("loaded", !ready.isEmpty());
    out.put("partial", !ready.isEmpty() && errors.size() > 0);
    ArrayNode registered = out.putArray("registered_tools");
    ArrayNode tools = NODES.arrayNode();
    ArrayNode groups = NODES.arrayNode();
    ArrayNode activated = NODES.arrayNode();
    ObjectNode instructions = NODES.objectNode();
    boolean anyUnlisted = false;
    for (String name : ready) {
      Skill skill = catalog.skill(name).orElseThrow();
      instructions.put(name, skill.manifest().body());
      for (GroupSpec g : skill.groups()) {
        ObjectNode group = groups.addObject();
        group.put("name", g.name()).put("description", g.description());
        g.tools().forEach(group.putArray("tools")::add);
        group.put("default_active", g.defaultActive()).put("active", g.defaultActive());
        group.put("skill_name", name);
        if (g.defaultActive()) {
          activated.add(g.name());
        }
      }
      for (ToolSpec tool : skill.tools()) {
        String listedName = callNames.get(name + "/" + tool.name());
        String callName =
            listedName != null ? listedName : name + ToolNames.QUALIFIER + tool.name();
        anyUnlisted |= listedName == null;
        registered.add(callName);
        ObjectNode t = listed.shown(callName, tool);
        tools.add(t);
        t.put("skill_name", name);
        if (tool.group() != null) {
          t.put("group", tool.group());
        }
        t.put("listed", listedName != null);
      }
    }
    out.put("tool_count", registered.size());
    out.putArray("newly_loaded");
    ready.forEach(out.putArray("already_loaded")::add);
    out.set("available_groups", groups);
    out.set("activated_groups", activated);
    out.set("tools", tools);
    if (ready.size() == 1) {
      out.set("instructions", instructions.elements().next());
    } else {
      out.set("instructions", instructions);
    }
    if (anyUnlisted) {
      out.put(
          "hint",
          "tools with listed: false are not in tools/list; call them with call_tool {name,"
              + " arguments}");
    }
    if (errors.size() > 0) {
      out.set("errors", errors);
      if (ready.isEmpty()) {
        String message = String.join("; ", (Iterable<String>) () -> values(errors));
        ToolFailureCode code = CoreTools.loadFailure(catalog, names);
        return new ToolResult(
            List.of(new dev.skillport.api.tool.Content.Text(code.name() + ": " + message)),
            out.put("code", code.name()).put("message", message),
            true);
      }
    }
    return ToolResult.structured(out);
  }

  private ToolResult activateGroup(
      Catalog catalog, SessionState state, JsonNode a, String principal) {
    String group = firstText(a, "group", "group_name", "tool_group");
    if (group == null) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS, "give group", "for example {\"group\": \"advanced\"}");
    }
    String skillName = a.path("skill_name").isTextual() ? a.get("skill_name").asText() : null;
    List<Skill> owners = new ArrayList<>();
    for (String name : state.view().loadedSkills()) {
      if (skillName != null && !skillName.equals(name)) {
        continue;
      }
      catalog
          .skill(name)
          .filter(s -> s.groups().stream().anyMatch(g -> g.name().equals(group)))
          .ifPresent(owners::add);
    }
    if (owners.isEmpty()) {
      return ToolResult.failure(
          ToolFailureCode.GROUP_NOT_FOUND,
          "no available skill"
              + (skillName == null ? "" : " named '" + skillName + "'")
              + " has a group '"
              + group
              + "'",
          "load_skill shows a skill's groups");
    }
    if (owners.size() > 1) {
      return ToolResult.failure(
          ToolFailureCode.GROUP_AMBIGUOUS,
          "several skills have a group '" + group + "'",
          "give skill_name as well");
    }
    Skill owner = owners.get(0);
    GroupSpec spec =
        owner.groups().stream().filter(g -> g.name().equals(group)).findFirst().orElseThrow();
    ObjectNode payload = NODES.objectNode().put("skill", owner.name()).put("group", group);
    if (principal != null) {
      payload.put("principal", principal);
    }
    String handle = signer.sign(GROUP_PURPOSE, payload, GROUP_TTL);
    Map<String, String> callNames = callNames(catalog, state);
    ObjectNode out = NODES.objectNode();
    out.put("success", true);
    out.put("group", group);
    out.put("skill_name", owner.name());
    out.put("changed", 0);
    ArrayNode active = out.putArray("active_groups");
    owner.groups().stream()
        .filter(g -> g.defaultActive() || g.name().equals(group))
        .forEach(g -> active.add(g.name()));
    ArrayNode tools = out.putArray("tools");
    for (String toolName : spec.tools()) {
      String listed = callNames.get(owner.name() + "/" + toolName);
      tools.add(listed != null ? listed : owner.name() + ToolNames.QUALIFIER + toolName);
    }
    out.put("group_handle", handle);
    out.put(
        "hint",
        spec.defaultActive()
            ? "this group is active by default; its tools need no handle"
            : "pass group_handle to call_tool to call this group's tools");
    return ToolResult.structured(out);
  }

  /** {@code skill/tool} → the name the tool is listed under for stateless clients. */
  private Map<String, String> callNames(Catalog catalog, SessionState state) {
    Map<String, String> out = new HashMap<>();
    for (ListedTool t : listed.stateless(catalog, state)) {
      if (t.kind() == ListedTool.Kind.TOOL) {
        out.put(t.skill() + "/" + t.spec().name(), t.name());
      }
    }
    return out;
  }

  private String problem(
      String requested, Skill skill, SessionState state, Map<String, String> bridgeRefusals) {
    if (skill == null) {
      return "no skill named '" + requested + "'";
    }
    if (skill.state() == SkillState.PENDING_DEPS) {
      return "skill '" + skill.name() + "' is waiting for a missing dependency";
    }
    if (skill.state() == SkillState.DENIED) {
      return SessionView.denied(skill.name());
    }
    if (skill.state() != SkillState.AVAILABLE) {
      return "skill '" + skill.name() + "' is " + skill.state().label();
    }
    Optional<String> refused = hosts.refusal(skill);
    if (refused.isPresent()) {
      return refused.get();
    }
    String bridge = bridgeRefusals.get(skill.name());
    if (bridge != null) {
      return bridge;
    }
    return state.view().isLoaded(skill.name()) ? null : "skill '" + skill.name() + "' cannot run";
  }

  private static java.util.Iterator<String> values(ObjectNode errors) {
    List<String> out = new ArrayList<>();
    errors.elements().forEachRemaining(e -> out.add(e.asText()));
    return out.iterator();
  }

  private static String firstText(JsonNode a, String... names) {
    for (String name : names) {
      if (a.path(name).isTextual() && !a.get(name).asText().isBlank()) {
        return a.get(name).asText();
      }
    }
    return null;
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
