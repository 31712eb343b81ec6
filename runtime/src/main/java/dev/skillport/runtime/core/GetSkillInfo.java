package dev.skillport.runtime.core;

import static dev.skillport.runtime.core.CoreTools.JSON;
import static dev.skillport.runtime.core.CoreTools.NODES;
import static dev.skillport.runtime.core.CoreTools.deniedReason;
import static dev.skillport.runtime.core.CoreTools.groupInfo;
import static dev.skillport.runtime.core.CoreTools.listedNames;
import static dev.skillport.runtime.core.CoreTools.missingDependencies;
import static dev.skillport.runtime.core.CoreTools.runtimes;
import static dev.skillport.runtime.core.CoreTools.searchHint;
import static dev.skillport.runtime.core.CoreTools.status;
import static dev.skillport.runtime.core.CoreTools.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.DccExtensions;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.PathArgument;
import dev.skillport.model.skill.PathPlace;
import dev.skillport.model.skill.PromptSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.CurrentBindings;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code get_skill_info}: a skill's metadata, SKILL.md, tools with full schemas, groups, scripts,
 * dependencies, prompts, workflows and diagnostics, secrets masked.
 */
final class GetSkillInfo implements CoreToolCall {
  private final CurrentBindings bindings;
  private final ListedEntries listed;
  private final SkillFileReader files;
  private final Redactor redactor;

  GetSkillInfo(
      CurrentBindings bindings, ListedEntries listed, SkillFileReader files, Redactor redactor) {
    this.bindings = bindings;
    this.listed = listed;
    this.files = files;
    this.redactor = redactor;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return skillInfo(catalog, session, args);
  }

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
            first(
                listedNames(listed, catalog, view, Set.of(s.name())),
                out,
                "registered_tools_omitted")));
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
    out.put("instructions", redactor.text(s.manifest().body()));
    out.set("metadata", redactor.keyed(JSON.valueToTree(s.manifest().metadata())));
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
      return redactor.skillMd(
          new String(files.read(file, MAX_MARKDOWN_BYTES), StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      // Changed or gone since the catalog was read: fall back to what was read then.
    }
    return redactor.text(s.manifest().body());
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

  private static final long MAX_MARKDOWN_BYTES = 1 << 20;

  /** Tools, groups and registered names get_skill_info lists at most; the rest are counted. */
  static final int MAX_INFO_ITEMS = 1000;

  /** Diagnostics get_skill_info lists at most; the rest are counted. */
  static final int MAX_INFO_DIAGNOSTICS = 200;
}
