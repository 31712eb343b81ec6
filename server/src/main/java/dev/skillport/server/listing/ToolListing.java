package dev.skillport.server.listing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.skillport.api.skill.Execution;
import dev.skillport.api.skill.GroupSpec;
import dev.skillport.api.skill.Skill;
import dev.skillport.api.skill.SkillState;
import dev.skillport.api.skill.ToolAnnotations;
import dev.skillport.api.skill.ToolBinding;
import dev.skillport.api.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.InvalidCursorException;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.ToolResolution;
import dev.skillport.runtime.secrets.Redactor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Assembles and pages a session's {@code tools/list}: core tools, the session's loaded tools, one
 * stub per inactive group of a loaded skill, one stub per discoverable skill not loaded. The
 * assembled list is cached per session and rebuilt when the session or the catalog changes.
 *
 * <p>A stateless listing serves the 2026-07-28 era, where loading changes no list: it lists the
 * core tools and the view's loaded tools only, in the same deterministic order (core tools, then
 * skills in the view's load order, each skill's tools in declaration order), with each tool's full
 * input schema (that era's clients understand any JSON Schema 2020-12 keyword).
 *
 * <p>Entries depend on the session only through which tools, groups and skills it lists and under
 * which name; their wire objects depend on the catalog alone. So core-tool entries are rendered
 * once, and every tool, group stub and skill stub (with its simplified schema) once per catalog
 * generation, shared by every session's listing.
 */
public final class ToolListing {
  private static final ObjectMapper JSON = new ObjectMapper();
  public static final String GROUP_STUB_PREFIX = "__group__";
  public static final String SKILL_STUB_PREFIX = "__skill__";
  public static final String QUALIFIER = "__";

  private static final Pattern LISTABLE = Pattern.compile("^[A-Za-z0-9_-]{1,64}$");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String CURSOR_PREFIX = "o:";

  private final Map<String, CoreTool> coreByName;
  private final int pageSize;
  private final boolean stubs;
  private final Cache<SessionView, Entries> cache;
  private final List<ListedTool> coreEntries;
  private volatile Rendered rendered = new Rendered(Long.MIN_VALUE);
  // Each entry's JSON text, by its wire object (compared by identity, dropped with it): written
  // once per catalog generation, then copied as bytes into every listing that shows it.
  private final Cache<ObjectNode, RawJson> json = Caffeine.newBuilder().weakKeys().build();

  /**
   * @param coreTools listed first in every session, in this order
   * @param pageSize entries per {@code tools/list} page
   */
  public ToolListing(List<CoreTool> coreTools, int pageSize) {
    this(coreTools, pageSize, true);
  }

  /**
   * @param coreTools listed first, in this order
   * @param pageSize entries per {@code tools/list} page
   * @param stubs whether this is a session's listing (group and skill stubs, client-safe simplified
   *     schemas) or a stateless one (neither)
   */
  public ToolListing(List<CoreTool> coreTools, int pageSize, boolean stubs) {
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be >= 1");
    }
    Map<String, CoreTool> byName = new LinkedHashMap<>();
    coreTools.forEach(t -> byName.put(t.name(), t));
    this.coreByName = Map.copyOf(byName);
    this.pageSize = pageSize;
    this.stubs = stubs;
    this.cache = Caffeine.newBuilder().weakKeys().maximumSize(100_000).build();
    List<ListedTool> core = new ArrayList<>();
    for (CoreTool tool : coreTools) {
      ObjectNode wire = NODES.objectNode();
      wire.put("name", tool.name());
      wire.put("description", tool.description());
      wire.set("inputSchema", tool.inputSchema());
      if (tool.annotations() != null) {
        wire.set("annotations", tool.annotations());
      }
      core.add(new ListedTool(tool.name(), ListedTool.Kind.CORE, null, null, null, wire));
    }
    this.coreEntries = List.copyOf(core);
  }

  /**
   * {@code page} as a {@code tools/list} result whose tools are written from their JSON text
   * ({@link #json}), after {@code leading} entries; {@code redactor} masks any entry that may hold
   * a registered secret, as the server's outbound filter would.
   */
  public ObjectNode result(Page page, List<ObjectNode> leading, Redactor redactor) {
    ObjectNode result = NODES.objectNode();
    result.set("tools", NODES.pojoNode(new ToolsJson(leading, page, redactor)));
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return result;
  }

  /** {@code tool}'s wire object as JSON text, serialized once while its wire object lives. */
  RawJson json(ListedTool tool) {
    return json.get(tool.wire(), ToolListing::serialize);
  }

  private static RawJson serialize(ObjectNode wire) {
    try {
      return new RawJson(JSON.writeValueAsString(wire), JSON.writeValueAsBytes(wire));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tool's wire object could not be serialized", e);
    }
  }

  /** One page of the listing. {@code cursor} is null for the first page. */
  public Page page(Catalog catalog, SessionView view, String cursor) throws InvalidCursorException {
    Entries entries = entries(catalog, view);
    int offset = cursor == null ? 0 : decode(cursor);
    if (offset > entries.tools.size()) {
      throw new InvalidCursorException(cursor);
    }
    int end = Math.min(entries.tools.size(), offset + pageSize);
    String next = end < entries.tools.size() ? encode(end) : null;
    return new Page(entries.tools.subList(offset, end), next, entries.json().subList(offset, end));
  }

  /** The whole listing for a session (cached). */
  public List<ListedTool> all(Catalog catalog, SessionView view) {
    return entries(catalog, view).tools;
  }

  /** Listed names that could not be made to fit the MCP name pattern, and were left out. */
  public List<String> unlistable(Catalog catalog, SessionView view) {
    return entries(catalog, view).unlistable;
  }

  /** Forgets a session's cached listing (the cache also forgets views no longer referenced). */
  public void invalidate(SessionView view) {
    cache.invalidate(view);
  }

  /**
   * Resolves a called name: the exact listed name, then {@code <skill>__<tool>} (hyphen or
   * underscore skill form), then a bare name among the session's loaded tools.
   */
  public ToolResolution resolve(Catalog catalog, SessionView view, String name) {
    Objects.requireNonNull(name, "name");
    Entries entries = entries(catalog, view);
    ListedTool listed = entries.byName.get(name);
    if (listed != null) {
      return switch (listed.kind()) {
        case CORE -> new ToolResolution.Core(coreByName.get(name));
        case TOOL ->
            new ToolResolution.Tool(catalog.skill(listed.skill()).orElseThrow(), listed.spec());
        case GROUP_STUB ->
            new ToolResolution.GroupNotActive(
                catalog.skill(listed.skill()).orElseThrow(), listed.group(), null);
        case SKILL_STUB ->
            new ToolResolution.SkillNotLoaded(catalog.skill(listed.skill()).orElseThrow());
      };
    }
    ToolResolution qualified = qualified(catalog, view, name);
    if (qualified != null) {
      return qualified;
    }
    ToolResolution found = null;
    for (String skillName : view.loadedSkills()) {
      Skill skill = catalog.skill(skillName).orElse(null);
      if (skill == null || skill.state() != SkillState.AVAILABLE) {
        continue;
      }
      ToolSpec tool = skill.tool(name).orElse(null);
      if (tool != null) {
        if (found != null) {
          return new ToolResolution.NotFound(name);
        }
        found = active(view, skill, tool);
      }
    }
    return found != null ? found : new ToolResolution.NotFound(name);
  }

  /**
   * Resolves a qualified name ({@code <skill>__<tool>}, hyphen or underscore skill form) against
   * {@code view} without assembling its listing, for views too large to list (every skill of a
   * catalog); core tools and bare names are not resolved here.
   */
  public static ToolResolution resolveQualified(Catalog catalog, SessionView view, String name) {
    Objects.requireNonNull(name, "name");
    ToolResolution qualified = qualified(catalog, view, name);
    return qualified != null ? qualified : new ToolResolution.NotFound(name);
  }

  /** {@code name} as {@code <skill>__<tool>} of a skill that has the tool, else null. */
  private static ToolResolution qualified(Catalog catalog, SessionView view, String name) {
    int sep = name.indexOf(QUALIFIER);
    if (sep <= 0 || sep + QUALIFIER.length() >= name.length()) {
      return null;
    }
    Skill skill = catalog.skill(name.substring(0, sep)).orElse(null);
    ToolSpec tool =
        skill == null ? null : skill.tool(name.substring(sep + QUALIFIER.length())).orElse(null);
    if (tool == null) {
      return null;
    }
    if (!view.isLoaded(skill.name()) || skill.state() != SkillState.AVAILABLE) {
      return new ToolResolution.SkillNotLoaded(skill);
    }
    return active(view, skill, tool);
  }

  private static ToolResolution active(SessionView view, Skill skill, ToolSpec tool) {
    if (tool.group() != null && !view.activeGroups(skill.name()).contains(tool.group())) {
      return new ToolResolution.GroupNotActive(skill, tool.group(), tool);
    }
    return new ToolResolution.Tool(skill, tool);
  }

  private Entries entries(Catalog catalog, SessionView view) {
    long version = view.version();
    Entries cached = cache.getIfPresent(view);
    if (cached != null && cached.generation == catalog.generation() && cached.version == version) {
      return cached;
    }
    Entries built = build(catalog, view, version);
    cache.put(view, built);
    return built;
  }

  private Entries build(Catalog catalog, SessionView view, long version) {
    Rendered wires = rendered(catalog.generation());
    List<ListedTool> out = new ArrayList<>(coreEntries);
    List<String> unlistable = new ArrayList<>();

    List<Skill> loaded = new ArrayList<>();
    for (String name : view.loadedSkills()) {
      catalog.skill(name).filter(s -> s.state() == SkillState.AVAILABLE).ifPresent(loaded::add);
    }
    Map<String, Integer> bareCounts = new HashMap<>();
    loaded.forEach(s -> s.tools().forEach(t -> bareCounts.merge(t.name(), 1, Integer::sum)));

    List<ListedTool> groupStubs = new ArrayList<>();
    Map<String, Integer> groupCounts = new HashMap<>();
    for (Skill skill : loaded) {
      Set<String> active = view.activeGroups(skill.name());
      skill.groups().stream()
          .filter(g -> !active.contains(g.name()))
          .forEach(g -> groupCounts.merge(g.name(), 1, Integer::sum));
    }
    for (Skill skill : loaded) {
      Set<String> active = view.activeGroups(skill.name());
      for (ToolSpec tool : skill.tools()) {
        if (tool.group() != null && !active.contains(tool.group())) {
          continue;
        }
        boolean bare =
            bareCounts.get(tool.name()) == 1
                && !coreByName.containsKey(tool.name())
                && !tool.name().startsWith(QUALIFIER)
                // A bridged server's tool always carries its skill's name: a third party's name
                // must neither shadow nor be shadowed, and must not change as other skills load.
                && !(tool.binding() instanceof ToolBinding.Bridge);
        String listedName = bare ? tool.name() : skill.name() + QUALIFIER + tool.name();
        if (!LISTABLE.matcher(listedName).matches()) {
          unlistable.add(skill.name() + "/" + tool.name());
          continue;
        }
        out.add(
            new ListedTool(
                listedName,
                ListedTool.Kind.TOOL,
                skill.name(),
                tool.group(),
                tool,
                wires.tool(listedName, skill, tool, stubs)));
      }
      for (GroupSpec group : skill.groups()) {
        if (!stubs || active.contains(group.name())) {
          continue;
        }
        String stubName =
            GROUP_STUB_PREFIX
                + (groupCounts.get(group.name()) == 1
                    ? group.name()
                    : skill.name() + QUALIFIER + group.name());
        if (!LISTABLE.matcher(stubName).matches()) {
          unlistable.add(skill.name() + "/group " + group.name());
          continue;
        }
        groupStubs.add(
            new ListedTool(
                stubName,
                ListedTool.Kind.GROUP_STUB,
                skill.name(),
                group.name(),
                null,
                wires.groupStub(stubName, skill, group)));
      }
    }
    out.addAll(groupStubs);

    if (stubs) {
      SkillStubs all = wires.skillStubs(catalog);
      for (ListedTool stub : all.entries) {
        if (!view.isLoaded(stub.skill())) {
          out.add(stub);
        }
      }
      for (String name : all.unlistable) {
        if (!view.isLoaded(name)) {
          unlistable.add(name);
        }
      }
    }
    return new Entries(catalog.generation(), version, out, unlistable, this::json);
  }

  /** The wire objects of one catalog generation, a new set when the generation changes. */
  private Rendered rendered(long generation) {
    Rendered current = rendered;
    if (current.generation != generation) {
      current = new Rendered(generation);
      rendered = current;
    }
    return current;
  }

  /**
   * Wire objects rendered for one catalog generation, keyed by listed name and what it names (a
   * listed name is the same tool, group or skill for every session within a generation).
   */
  private static final class Rendered {
    final long generation;
    private final Map<String, ObjectNode> tools = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> groupStubs = new ConcurrentHashMap<>();
    private volatile SkillStubs skillStubs;

    Rendered(long generation) {
      this.generation = generation;
    }

    ObjectNode tool(String listedName, Skill skill, ToolSpec tool, boolean simplify) {
      return tools.computeIfAbsent(
          skill.name() + '/' + tool.name() + '/' + listedName,
          k -> toolWire(listedName, skill, tool, simplify));
    }

    ObjectNode groupStub(String stubName, Skill skill, GroupSpec group) {
      return groupStubs.computeIfAbsent(
          skill.name() + '/' + stubName, k -> groupStubWire(stubName, skill, group));
    }

    /** The stub of every skill a session may list while it has not loaded it. */
    SkillStubs skillStubs(Catalog catalog) {
      SkillStubs built = skillStubs;
      if (built == null) {
        built = SkillStubs.of(catalog);
        skillStubs = built;
      }
      return built;
    }
  }

  /** Skill stubs in catalog order, and the skills whose stub name cannot be listed. */
  private static final class SkillStubs {
    final List<ListedTool> entries;
    final List<String> unlistable;

    private SkillStubs(List<ListedTool> entries, List<String> unlistable) {
      this.entries = List.copyOf(entries);
      this.unlistable = List.copyOf(unlistable);
    }

    static SkillStubs of(Catalog catalog) {
      List<ListedTool> entries = new ArrayList<>();
      List<String> unlistable = new ArrayList<>();
      for (Skill skill : catalog.skills()) {
        if (skill.state() != SkillState.AVAILABLE
            || !skill.manifest().extensions().discovery().allowImplicitInvocation()) {
          continue;
        }
        String stubName = SKILL_STUB_PREFIX + skill.name();
        if (!LISTABLE.matcher(stubName).matches()) {
          unlistable.add(skill.name());
          continue;
        }
        entries.add(
            new ListedTool(
                stubName,
                ListedTool.Kind.SKILL_STUB,
                skill.name(),
                null,
                null,
                skillStubWire(stubName, skill)));
      }
      return new SkillStubs(entries, unlistable);
    }
  }

  private static ObjectNode toolWire(
      String listedName, Skill skill, ToolSpec tool, boolean simplify) {
    ObjectNode wire = NODES.objectNode();
    wire.put("name", listedName);
    wire.put("description", tool.description());
    wire.set(
        "inputSchema",
        simplify ? SchemaSimplifier.simplify(tool.inputSchema()) : fullSchema(tool.inputSchema()));
    ObjectNode output = SchemaSimplifier.output(tool);
    if (output != null) {
      wire.set("outputSchema", output);
    }
    ObjectNode annotations = annotations(tool.annotations());
    if (annotations.size() > 0) {
      wire.set("annotations", annotations);
    }
    ObjectNode dcc = NODES.objectNode();
    dcc.put("skill", skill.name());
    if (tool.group() != null) {
      dcc.put("group", tool.group());
    }
    if (tool.timeoutHintSecs() != null) {
      dcc.put("timeoutHintSecs", tool.timeoutHintSecs());
    }
    // Declared, else derived: an async tool's calls return a job handle, not the result.
    Boolean deferred = tool.annotations().deferredHint();
    if (deferred == null && tool.execution() == Execution.ASYNC) {
      deferred = Boolean.TRUE;
    }
    if (deferred != null) {
      dcc.put("deferred_hint", deferred);
    }
    if (!tool.searchAliases().isEmpty()) {
      ArrayNode aliases = dcc.putArray("searchAliases");
      tool.searchAliases().forEach(aliases::add);
    }
    if (!tool.requiredCapabilities().isEmpty()) {
      ArrayNode caps = dcc.putArray("required_capabilities");
      tool.requiredCapabilities().forEach(caps::add);
    }
    wire.putObject("_meta").set("dcc", dcc);
    return wire;
  }

  /** The declared schema as listed whole: an object schema, {@code type: object} at its root. */
  private static ObjectNode fullSchema(com.fasterxml.jackson.databind.JsonNode schema) {
    ObjectNode out =
        schema != null && schema.isObject() ? (ObjectNode) schema.deepCopy() : NODES.objectNode();
    if (!out.has("type")) {
      out.put("type", "object");
    }
    return out;
  }

  /** A tool's MCP {@code annotations} object: its title and the hints it declares. */
  public static ObjectNode annotationsWire(ToolAnnotations a) {
    return annotations(a);
  }

  private static ObjectNode annotations(ToolAnnotations a) {
    ObjectNode out = NODES.objectNode();
    if (a.title() != null) {
      out.put("title", a.title());
    }
    putHint(out, "readOnlyHint", a.readOnlyHint());
    putHint(out, "destructiveHint", a.destructiveHint());
    putHint(out, "idempotentHint", a.idempotentHint());
    putHint(out, "openWorldHint", a.openWorldHint());
    return out;
  }

  private static void putHint(ObjectNode out, String key, Boolean value) {
    if (value != null) {
      out.put(key, value);
    }
  }

  private static ObjectNode groupStubWire(String stubName, Skill skill, GroupSpec group) {
    ObjectNode wire = NODES.objectNode();
    wire.put("name", stubName);
    String desc = group.description().isBlank() ? "" : " " + oneLine(group.description(), 120);
    wire.put(
        "description",
        "["
            + skill.name()
            + "] group "
            + group.name()
            + ":"
            + desc
            + " • "
            + group.tools().size()
            + " tools • Call activate_tool_group(\""
            + group.name()
            + "\", skill_name=\""
            + skill.name()
            + "\")");
    wire.set("inputSchema", NODES.objectNode().put("type", "object"));
    return wire;
  }

  private static ObjectNode skillStubWire(String stubName, Skill skill) {
    ObjectNode wire = NODES.objectNode();
    wire.put("name", stubName);
    var ext = skill.manifest().extensions();
    String keywords =
        ext.discovery().searchHint() != null && !ext.discovery().searchHint().isBlank()
            ? ext.discovery().searchHint()
            : ext.discovery().tags().isEmpty()
                ? skill.manifest().description()
                : String.join(", ", ext.discovery().tags());
    wire.put(
        "description",
        "["
            + ext.dcc()
            + "] "
            + skill.tools().size()
            + " tools • keywords: "
            + oneLine(keywords, 80)
            + " • Call load_skill(\""
            + skill.name()
            + "\")");
    wire.set("inputSchema", NODES.objectNode().put("type", "object"));
    return wire;
  }

  private static String oneLine(String text, int max) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= max ? flat : flat.substring(0, max - 1) + "…";
  }

  private static String encode(int offset) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((CURSOR_PREFIX + offset).getBytes(StandardCharsets.UTF_8));
  }

  private static int decode(String cursor) throws InvalidCursorException {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (!text.startsWith(CURSOR_PREFIX)) {
        throw new InvalidCursorException(cursor);
      }
      int offset = Integer.parseInt(text.substring(CURSOR_PREFIX.length()));
      if (offset < 0) {
        throw new InvalidCursorException(cursor);
      }
      return offset;
    } catch (IllegalArgumentException e) {
      throw new InvalidCursorException(cursor);
    }
  }

  /**
   * One page of the listing.
   *
   * @param tools its entries
   * @param nextCursor the cursor of the next page, or {@code null} on the last page
   * @param json each entry's JSON text ({@link #json}), in the order of {@code tools}
   */
  public record Page(List<ListedTool> tools, String nextCursor, List<RawJson> json) {
    public Page {
      tools = List.copyOf(tools);
      json = List.copyOf(json);
      if (json.size() != tools.size()) {
        throw new IllegalArgumentException("one JSON text per entry");
      }
    }
  }

  private static final class Entries {
    final long generation;
    final long version;
    final List<ListedTool> tools;
    final Map<String, ListedTool> byName;
    final List<String> unlistable;
    private final Function<ListedTool, RawJson> text;
    // Each entry's JSON text, looked up when the listing is first paged rather than on every page
    // written (a resolution of a called name needs none of it).
    private volatile List<RawJson> json;

    Entries(
        long generation,
        long version,
        List<ListedTool> tools,
        List<String> unlistable,
        Function<ListedTool, RawJson> text) {
      this.generation = generation;
      this.version = version;
      this.tools = List.copyOf(tools);
      this.text = text;
      this.byName =
          this.tools.stream()
              .collect(Collectors.toMap(ListedTool::name, t -> t, (a, b) -> a, HashMap::new));
      this.unlistable = List.copyOf(unlistable);
    }

    List<RawJson> json() {
      List<RawJson> texts = json;
      if (texts == null) {
        texts = tools.stream().map(text).toList();
        json = texts;
      }
      return texts;
    }
  }
}
