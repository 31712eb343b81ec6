package dev.skillport.server.listing;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.FrozenJson;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.InvalidCursorException;
import dev.skillport.registry.ListedTool;
import dev.skillport.registry.SessionView;
import dev.skillport.registry.ToolNames;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Renders and pages a session's {@code tools/list}: core tools, the session's loaded tools, one
 * stub per inactive group of a loaded skill, one stub per discoverable skill not loaded. Which
 * entries are listed, and under which names, is {@link ToolNames}'s to say; this class gives each
 * its wire object. The rendered list is cached per session and rebuilt when the session or the
 * catalog changes.
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
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String CURSOR_PREFIX = "o:";
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  private final ToolNames names;
  private final int pageSize;
  private final boolean stubs;
  private final Cache<SessionView, Entries> cache;
  private final Map<String, ListedTool> coreEntries;
  private volatile Rendered rendered = new Rendered(Long.MIN_VALUE);

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
    this.names = new ToolNames(coreTools, stubs);
    this.pageSize = pageSize;
    this.stubs = stubs;
    this.cache = Caffeine.newBuilder().weakKeys().maximumSize(100_000).build();
    Map<String, ListedTool> core = new HashMap<>();
    for (CoreTool tool : coreTools) {
      ObjectNode wire = NODES.objectNode();
      wire.put("name", tool.name());
      wire.put("description", tool.description());
      wire.set("inputSchema", tool.inputSchema());
      if (tool.annotations() != null) {
        wire.set("annotations", tool.annotations());
      }
      core.put(
          tool.name(), new ListedTool(tool.name(), ListedTool.Kind.CORE, null, null, null, wire));
    }
    this.coreEntries = Map.copyOf(core);
  }

  /** The names this listing lists its entries under, and what a called name resolves to. */
  public ToolNames names() {
    return names;
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

  /**
   * {@code tool}'s wire object as JSON text, serialized once while the catalog generation listed
   * last is current.
   */
  RawJson json(ListedTool tool) {
    return rendered.json(List.of(tool)).get(0);
  }

  /**
   * Each of {@code tools}' JSON text, in order, remembered in {@code known} (by wire object,
   * compared by identity): those not yet serialized are written through one generator and buffer (a
   * first listing of a large catalog writes every entry; one {@code writeValueAsBytes} each cost a
   * generator and its buffers per entry).
   */
  private static List<RawJson> jsonAll(List<ListedTool> tools, Map<ObjectNode, RawJson> known) {
    RawJson[] out = new RawJson[tools.size()];
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      out[i] = known.get(tools.get(i).wire());
      if (out[i] == null) {
        missing.add(i);
      }
    }
    if (missing.isEmpty()) {
      return List.of(out);
    }
    ByteArrayBuilder buffer = new ByteArrayBuilder();
    try (JsonGenerator gen = JSON.createGenerator(buffer)) {
      gen.setRootValueSeparator(null);
      for (int i : missing) {
        ObjectNode wire = tools.get(i).wire();
        JSON.writeTree(gen, wire);
        gen.flush();
        RawJson written = new RawJson(buffer.toByteArray());
        buffer.reset();
        RawJson first = known.putIfAbsent(wire, written);
        out[i] = first != null ? first : written;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("a tool's wire object could not be serialized", e);
    } finally {
      buffer.release();
    }
    return List.of(out);
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
    names.forget(view);
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

  /** The entries {@code view} lists, each with its wire object of this catalog generation. */
  private Entries build(Catalog catalog, SessionView view, long version) {
    Rendered wires = rendered(catalog.generation());
    ToolNames.Named named = names.named(catalog, view);
    List<ListedTool> out = new ArrayList<>(named.entries().size());
    for (ToolNames.Name name : named.entries()) {
      out.add(
          switch (name.kind()) {
            case CORE -> coreEntries.get(name.name());
            case TOOL ->
                new ListedTool(
                    name.name(),
                    name.kind(),
                    name.skill(),
                    name.group(),
                    name.spec(),
                    wires.tool(name.name(), name.skill(), name.spec(), stubs));
            case GROUP_STUB ->
                new ListedTool(
                    name.name(),
                    name.kind(),
                    name.skill(),
                    name.group(),
                    null,
                    wires.groupStub(name.name(), catalog, name.skill(), name.group()));
            case SKILL_STUB -> wires.skillStub(name, catalog, names);
          });
    }
    return new Entries(catalog.generation(), version, out, named.unlistable(), wires::json);
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
   * listed name is the same tool, group or skill for every session within a generation), and each
   * listed entry's JSON text.
   */
  private static final class Rendered {
    final long generation;
    private final Map<String, ObjectNode> tools = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> groupStubs = new ConcurrentHashMap<>();
    // Made on first use, whole, then only read (published through the volatile write).
    private volatile Map<ToolNames.Name, ListedTool> skillStubs;
    // Each listed entry's JSON text by its wire object, compared by identity: written once per
    // generation, then copied as bytes into every listing that shows it, and dropped with the
    // generation (a wire object of another generation or a core tool's is written again once).
    private final Map<ObjectNode, RawJson> json =
        Collections.synchronizedMap(new IdentityHashMap<>());

    Rendered(long generation) {
      this.generation = generation;
    }

    List<RawJson> json(List<ListedTool> entries) {
      return jsonAll(entries, json);
    }

    ObjectNode tool(String listedName, String skill, ToolSpec tool, boolean simplify) {
      return tools.computeIfAbsent(
          skill + '/' + tool.name() + '/' + listedName,
          k -> toolWire(listedName, skill, tool, simplify));
    }

    ObjectNode groupStub(String stubName, Catalog catalog, String skill, String group) {
      return groupStubs.computeIfAbsent(
          skill + '/' + stubName,
          k -> {
            Skill owner = catalog.skill(skill).orElseThrow();
            GroupSpec spec =
                owner.groups().stream()
                    .filter(g -> g.name().equals(group))
                    .findFirst()
                    .orElseThrow();
            return groupStubWire(stubName, owner, spec);
          });
    }

    /**
     * {@code stub}'s entry. Every view of a generation lists the same stub instances, so their
     * entries are made once, together, and found by identity; a stub of another instance (the
     * catalog changed while a view was listed) is rendered on its own.
     */
    ListedTool skillStub(ToolNames.Name stub, Catalog catalog, ToolNames names) {
      Map<ToolNames.Name, ListedTool> entries = skillStubs;
      if (entries == null) {
        entries = new IdentityHashMap<>();
        for (ToolNames.Name each : names.skillStubs(catalog)) {
          entries.put(each, skillStubEntry(each, catalog));
        }
        skillStubs = entries;
      }
      ListedTool entry = entries.get(stub);
      return entry != null ? entry : skillStubEntry(stub, catalog);
    }
  }

  private static ListedTool skillStubEntry(ToolNames.Name stub, Catalog catalog) {
    return new ListedTool(
        stub.name(),
        ListedTool.Kind.SKILL_STUB,
        stub.skill(),
        null,
        null,
        skillStubWire(stub.name(), catalog.skill(stub.skill()).orElseThrow()));
  }

  private static ObjectNode toolWire(
      String listedName, String skill, ToolSpec tool, boolean simplify) {
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
    dcc.put("skill", skill);
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
    if (schema instanceof ObjectNode object && FrozenJson.isFrozen(object) && object.has("type")) {
      // Listed as it is: frozen, so every listing may share it.
      return object;
    }
    ObjectNode out =
        schema != null && schema.isObject() ? (ObjectNode) schema.deepCopy() : NODES.objectNode();
    if (!out.has("type")) {
      out.put("type", "object");
    }
    return out;
  }

  /**
   * A listed tool as the core tools show it: its listed name, description, schemas and annotations,
   * without {@code _meta}; a new object.
   */
  public static ObjectNode shown(ListedTool tool) {
    ObjectNode o = NODES.objectNode();
    o.put("name", tool.name());
    o.set("description", tool.wire().get("description"));
    o.set("inputSchema", tool.wire().get("inputSchema"));
    copy(tool.wire(), o, "outputSchema");
    copy(tool.wire(), o, "annotations");
    return o;
  }

  /**
   * A tool that is not listed as the stateless {@code load_skill} shows it: {@code callName}, its
   * description, its declared schemas and its annotations; a new object.
   */
  public static ObjectNode shown(String callName, ToolSpec tool) {
    ObjectNode t = NODES.objectNode();
    t.put("name", callName);
    t.put("description", tool.description());
    t.set("inputSchema", tool.inputSchema());
    if (tool.outputSchema() != null && tool.outputSchema().isObject()) {
      t.set("outputSchema", tool.outputSchema());
    }
    ObjectNode annotations = annotations(tool.annotations());
    if (annotations.size() > 0) {
      t.set("annotations", annotations);
    }
    return t;
  }

  private static void copy(ObjectNode from, ObjectNode to, String field) {
    if (from.has(field)) {
      to.set(field, from.get(field));
    }
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
    String flat = WHITESPACE.matcher(text).replaceAll(" ").strip();
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
   * One page of the listing: its entries, the cursor of the next page ({@code null} on the last
   * page) and each entry's JSON text ({@link #json}), in the order of the entries. The lists are
   * views of the listing's own immutable lists, so a page copies nothing.
   */
  public static final class Page {
    private final List<ListedTool> tools;
    private final String nextCursor;
    private final List<RawJson> json;

    private Page(List<ListedTool> tools, String nextCursor, List<RawJson> json) {
      if (json.size() != tools.size()) {
        throw new IllegalArgumentException("one JSON text per entry");
      }
      this.tools = tools;
      this.nextCursor = nextCursor;
      this.json = json;
    }

    /** The page's entries (immutable). */
    public List<ListedTool> tools() {
      return tools;
    }

    /** The cursor of the next page, or {@code null} on the last page. */
    public String nextCursor() {
      return nextCursor;
    }

    /** Each entry's JSON text, in the order of {@link #tools()} (immutable). */
    public List<RawJson> json() {
      return json;
    }
  }

  private static final class Entries {
    final long generation;
    final long version;
    final List<ListedTool> tools;
    final List<String> unlistable;
    private final Function<List<ListedTool>, List<RawJson>> text;
    // Each entry's JSON text, looked up when the listing is first paged rather than on every page
    // written (a resolution of a called name needs none of it).
    private volatile List<RawJson> json;

    Entries(
        long generation,
        long version,
        List<ListedTool> tools,
        List<String> unlistable,
        Function<List<ListedTool>, List<RawJson>> text) {
      this.generation = generation;
      this.version = version;
      this.tools = List.copyOf(tools);
      this.text = text;
      this.unlistable = List.copyOf(unlistable);
    }

    List<RawJson> json() {
      List<RawJson> texts = json;
      if (texts == null) {
        texts = text.apply(tools);
        json = texts;
      }
      return texts;
    }
  }
}
