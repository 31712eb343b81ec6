package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.NextTools;
import dev.skillport.model.skill.PathArgument;
import dev.skillport.model.skill.ThreadAffinity;
import dev.skillport.model.skill.ToolAnnotations;
import dev.skillport.model.skill.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Reads a tools file ({@code {tools: [entry…], groups: [group…]}}) and a separate groups file.
 *
 * <p>Each entry is checked on its own: an invalid one is dropped with a warning and the others
 * load. A tool name must match {@value #NAME_RULE}: MCP clients accept these characters, and 64
 * keeps a qualified {@code <skill>__<tool>} name within common client limits.
 */
final class ToolsFileReader {
  /** The tool-name rule, documented in the class comment. */
  static final String NAME_RULE = "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$";

  /**
   * {@link #hintKey} answers by key as written ("" for none): every tool of every file asks about
   * the same few keys, and the lowercasing and replacing cost more than a lookup.
   */
  private static final Map<String, String> HINT_KEYS = new ConcurrentHashMap<>();

  private static final int MAX_HINT_KEYS = 1024;

  private static final Pattern NAME = Pattern.compile(NAME_RULE);

  /** Keys kept verbatim in {@link ToolSpec#extras()}. */
  private static final List<String> EXTRAS =
      List.of(
          "call_examples", "intent", "tool_role", "risk", "side_effects", "produces", "requires");

  /** Every documented entry key other than the {@code *_hint} shorthands. */
  private static final Set<String> KNOWN =
      Set.of(
          "name",
          "description",
          "input_schema",
          "inputSchema",
          "output_schema",
          "outputSchema",
          "annotations",
          "next-tools",
          "next_tools",
          "group",
          "execution",
          "timeout_hint_secs",
          "timeout-hint-secs",
          "thread-affinity",
          "thread_affinity",
          "affinity",
          "source_file",
          "handler",
          "required_capabilities",
          "search_aliases",
          "call_examples",
          "intent",
          "tool_role",
          "risk",
          "side_effects",
          "produces",
          "requires",
          "read_only",
          "destructive",
          "idempotent",
          "enforce_thread_affinity",
          "paths");

  private final SiblingContext ctx;
  private final SiblingYaml yaml;
  private final PathDeclarations pathDeclarations;

  /** What a tools file yields; {@code groups} is empty when the file declares none. */
  record Result(List<DeclaredTool> tools, List<DeclaredGroup> groups) {}

  ToolsFileReader(SiblingContext ctx, SiblingYaml yaml) {
    this.ctx = ctx;
    this.yaml = yaml;
    this.pathDeclarations = new PathDeclarations(ctx);
  }

  /** Reads the tools file at {@code file}; an unreadable or misshapen file yields nothing. */
  Result read(Path file) {
    Optional<YamlDocument> parsed = yaml.read(file);
    if (parsed.isEmpty()) {
      return new Result(List.of(), List.of());
    }
    YamlDocument doc = parsed.get();
    if (doc.root().isNull()) {
      return new Result(List.of(), List.of());
    }
    if (!yaml.checkFile(SiblingSchema.TOOLS_FILE, doc, file, "tools file")) {
      return new Result(List.of(), List.of());
    }
    List<DeclaredTool> tools = new ArrayList<>();
    Set<String> names = new HashSet<>();
    JsonNode entries = doc.root().path("tools");
    for (int i = 0; i < entries.size(); i++) {
      String pointer = "/tools/" + i;
      tool(entries.get(i), doc, pointer, file)
          .ifPresent(
              t -> {
                if (names.add(t.spec().name())) {
                  tools.add(t);
                } else {
                  ctx.diagnostics()
                      .report(
                          DiagnosticCode.TOOL_DUPLICATE_NAME,
                          "Tool '"
                              + t.spec().name()
                              + "' is declared twice; this entry was dropped.",
                          file,
                          doc.locate(pointer),
                          "Give each tool of a skill its own name.");
                }
              });
    }
    List<DeclaredGroup> groups = groups(doc.root().path("groups"), doc, "/groups", file);
    return new Result(tools, groups);
  }

  /** Reads a separate groups file ({@code {groups: […]}} or a bare list). */
  List<DeclaredGroup> readGroupsFile(Path file) {
    Optional<YamlDocument> parsed = yaml.read(file);
    if (parsed.isEmpty() || parsed.get().root().isNull()) {
      return List.of();
    }
    YamlDocument doc = parsed.get();
    if (!yaml.checkFile(SiblingSchema.GROUPS_FILE, doc, file, "groups file")) {
      return List.of();
    }
    boolean bare = doc.root().isArray();
    return groups(bare ? doc.root() : doc.root().path("groups"), doc, bare ? "" : "/groups", file);
  }

  private List<DeclaredGroup> groups(
      JsonNode entries, YamlDocument doc, String listPointer, Path file) {
    List<DeclaredGroup> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      String pointer = listPointer + "/" + i;
      JsonNode entry = entries.get(i);
      if (!yaml.checkEntry(
          SiblingSchema.GROUP, entry, doc, pointer, file, DiagnosticCode.GROUP_INVALID, "group")) {
        continue;
      }
      String name = entry.path("name").asText().strip();
      if (!names.add(name)) {
        ctx.diagnostics()
            .report(
                DiagnosticCode.GROUP_DUPLICATE,
                "Group '" + name + "' is declared twice; this entry was dropped.",
                file,
                doc.locate(pointer),
                null);
        continue;
      }
      List<DeclaredGroup.Member> members = new ArrayList<>();
      JsonNode tools = entry.path("tools");
      if (tools.isArray()) {
        for (int j = 0; j < tools.size(); j++) {
          members.add(
              new DeclaredGroup.Member(
                  tools.get(j).asText().strip(), new Place(doc, pointer + "/tools/" + j)));
        }
      } else {
        for (String t : YamlValues.stringList(tools)) {
          members.add(new DeclaredGroup.Member(t, new Place(doc, pointer + "/tools")));
        }
      }
      JsonNode active =
          entry.has("default-active") ? entry.get("default-active") : entry.get("default_active");
      out.add(
          new DeclaredGroup(
              name,
              YamlValues.text(entry.get("description")),
              members,
              active != null && active.asBoolean(false),
              false,
              file,
              new Place(doc, pointer)));
    }
    return out;
  }

  private Optional<DeclaredTool> tool(JsonNode raw, YamlDocument doc, String pointer, Path file) {
    JsonNode entry = raw;
    if (raw.isTextual()) {
      entry = JsonNodeFactory.instance.objectNode().put("name", raw.asText());
    } else if (!raw.isObject()) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.TOOL_ENTRY_INVALID,
              "The tool entry was dropped: it must be a mapping or a name, not "
                  + raw.getNodeType().name().toLowerCase(Locale.ROOT)
                  + ".",
              file,
              doc.locate(pointer),
              null);
      return Optional.empty();
    }
    String label = entry.path("name").isTextual() ? "'" + entry.get("name").asText() + "'" : "";
    if (entry.has("deferred")) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.TOOL_DEFERRED,
              "Tool " + label + " uses 'deferred:', which is not supported; the entry was dropped.",
              file,
              doc.locate(pointer + "/deferred"),
              "Use 'execution: async' to run calls as jobs.");
      return Optional.empty();
    }
    if (!yaml.checkEntry(
        SiblingSchema.TOOL,
        entry,
        doc,
        pointer,
        file,
        DiagnosticCode.TOOL_ENTRY_INVALID,
        ("tool entry " + label).strip())) {
      return Optional.empty();
    }
    String name = entry.get("name").asText().strip();
    if (!NAME.matcher(name).matches()) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.TOOL_NAME_INVALID,
              "Tool name '" + name + "' is unusable; the entry was dropped.",
              file,
              doc.locate(pointer + (raw.isTextual() ? "" : "/name")),
              "Use 1-64 letters, digits, '_', '.' or '-', not starting with '.' or '-'.");
      return Optional.empty();
    }
    Optional<Execution> execution = execution(entry, doc, pointer, file, name);
    Optional<ThreadAffinity> affinity = affinity(entry, doc, pointer, file, name);
    if (execution.isEmpty() || affinity.isEmpty()) {
      return Optional.empty();
    }
    JsonNode input = aliased(entry, "input_schema", "inputSchema", doc, pointer, file, name);
    JsonNode output = aliased(entry, "output_schema", "outputSchema", doc, pointer, file, name);
    if (!schemaValid(input, "input_schema", doc, pointer, file, name, true)
        || !schemaValid(output, "output_schema", doc, pointer, file, name, false)) {
      return Optional.empty();
    }
    Optional<List<PathArgument>> paths =
        pathDeclarations.read(entry, input, doc, pointer, file, name);
    if (paths.isEmpty()) {
      return Optional.empty();
    }
    input = servableInput(input, entry, doc, pointer, file, name);
    output = servableOutput(output, entry, doc, pointer, file, name);
    reportUnknownKeys(entry, doc, pointer, file, name);

    String description = YamlValues.text(entry.get("description"));
    if (description == null || description.isBlank()) {
      description = SiblingFiles.defaultDescription(ctx);
    }
    ToolSpec.Builder spec =
        ToolSpec.builder(name, input == null ? ToolSpec.defaultInputSchema() : input)
            .description(description)
            .outputSchema(output)
            .annotations(annotations(entry))
            .nextTools(nextTools(entry))
            .group(blankToNull(YamlValues.text(entry.get("group"))))
            .execution(execution.get())
            .timeoutHintSecs(timeout(entry))
            .affinity(affinity.get())
            .requiredCapabilities(YamlValues.stringList(entry.get("required_capabilities")))
            .searchAliases(YamlValues.stringList(entry.get("search_aliases")))
            .extras(extras(entry))
            .paths(paths.get());
    String source = blankToNull(YamlValues.text(entry.get("source_file")));
    return Optional.of(
        new DeclaredTool(
            spec.build(),
            blankToNull(YamlValues.text(entry.get("handler"))),
            source,
            file,
            new Place(doc, pointer)));
  }

  private Optional<Execution> execution(
      JsonNode entry, YamlDocument doc, String pointer, Path file, String name) {
    String value = YamlValues.text(entry.get("execution"));
    if (value == null) {
      return Optional.of(Execution.SYNC);
    }
    switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "sync":
        return Optional.of(Execution.SYNC);
      case "async":
        return Optional.of(Execution.ASYNC);
      case "task":
        return Optional.of(Execution.TASK);
      default:
        ctx.diagnostics()
            .report(
                DiagnosticCode.TOOL_EXECUTION_INVALID,
                "Tool '" + name + "' has execution '" + value + "'; the entry was dropped.",
                file,
                doc.locate(pointer + "/execution"),
                "Use 'sync' (the default), 'async' or 'task'.");
        return Optional.empty();
    }
  }

  private Optional<ThreadAffinity> affinity(
      JsonNode entry, YamlDocument doc, String pointer, Path file, String name) {
    for (String key : List.of("thread-affinity", "thread_affinity", "affinity")) {
      if (!entry.has(key)) {
        continue;
      }
      String value = entry.get(key).asText().strip().toLowerCase(Locale.ROOT);
      if (value.equals("any")) {
        return Optional.of(ThreadAffinity.ANY);
      }
      if (value.equals("main")) {
        return Optional.of(ThreadAffinity.MAIN);
      }
      ctx.diagnostics()
          .report(
              DiagnosticCode.TOOL_AFFINITY_INVALID,
              "Tool '"
                  + name
                  + "' has thread affinity '"
                  + entry.get(key).asText()
                  + "'; the entry was dropped.",
              file,
              doc.locate(pointer + "/" + key),
              "Use 'any' (the default) or 'main'.");
      return Optional.empty();
    }
    // Upstream's enforce_thread_affinity: true asks for the host's main thread.
    return Optional.of(
        Boolean.TRUE.equals(flag(entry, "enforce_thread_affinity"))
            ? ThreadAffinity.MAIN
            : ThreadAffinity.ANY);
  }

  /** The value under {@code key}, else under its alias (with a notice), else null. */
  private JsonNode aliased(
      JsonNode entry,
      String key,
      String alias,
      YamlDocument doc,
      String pointer,
      Path file,
      String name) {
    if (entry.has(alias)) {
      ctx.diagnostics()
          .report(
              DiagnosticCode.TOOL_KEY_ALIAS,
              "Tool '"
                  + name
                  + "' uses '"
                  + alias
                  + "'"
                  + (entry.has(key)
                      ? ", which is ignored because '" + key + "' is also set."
                      : "."),
              file,
              doc.locate(pointer + "/" + alias),
              "The documented key is '" + key + "'.");
    }
    JsonNode value = entry.has(key) ? entry.get(key) : entry.get(alias);
    return value == null || value.isNull() ? null : value;
  }

  private boolean schemaValid(
      JsonNode schema,
      String key,
      YamlDocument doc,
      String pointer,
      Path file,
      String name,
      boolean mustBeObject) {
    if (schema == null) {
      return true;
    }
    String problem = null;
    String below = "";
    if (mustBeObject && !schema.isObject()) {
      problem = "it must be a mapping";
    } else {
      List<SiblingSchema.Issue> issues = SiblingSchema.META_2020_12.validate(schema);
      if (!issues.isEmpty()) {
        problem = SiblingYaml.summarize(issues);
        below = issues.get(0).pointer();
      }
    }
    if (problem == null) {
      return true;
    }
    ctx.diagnostics()
        .report(
            DiagnosticCode.TOOL_SCHEMA_INVALID,
            "Tool '"
                + name
                + "' has an "
                + key
                + " that is not a valid JSON Schema 2020-12 ("
                + problem
                + "); the entry was dropped.",
            file,
            doc.locate(pointer + "/" + key + below),
            null);
    return false;
  }

  /**
   * The input schema as served: MCP arguments are always an object, so a schema whose root admits
   * no object (a string, a list…) could never accept a call. It is replaced by {@code
   * {"type":"object"}} with a warning, and the tool stays callable.
   */
  private JsonNode servableInput(
      JsonNode input, JsonNode entry, YamlDocument doc, String pointer, Path file, String name) {
    if (input == null || ToolSpec.admitsOnlyObjects(input)) {
      return input;
    }
    String key = entry.has("input_schema") ? "input_schema" : "inputSchema";
    ctx.diagnostics()
        .report(
            DiagnosticCode.TOOL_SCHEMA_NOT_OBJECT,
            "Tool '"
                + name
                + "' has an "
                + key
                + " whose root is "
                + rootType(input)
                + ", but MCP tool arguments are always an object; the tool is listed and checked"
                + " with {\"type\": \"object\"} instead.",
            file,
            doc.locate(pointer + "/" + key + (input.has("type") ? "/type" : "")),
            "Describe each argument under properties of a type: object schema.");
    return null;
  }

  /**
   * The output schema as kept: one whose root admits values other than objects is served wrapped
   * ({@code structuredContent: {"result": value}}, see {@link ToolSpec#wrapsOutput()}) with a
   * warning; {@code false}, which no result can match, is dropped with a warning.
   */
  private JsonNode servableOutput(
      JsonNode output, JsonNode entry, YamlDocument doc, String pointer, Path file, String name) {
    if (output == null || ToolSpec.admitsOnlyObjects(output)) {
      return output;
    }
    String key = entry.has("output_schema") ? "output_schema" : "outputSchema";
    boolean never = output.isBoolean();
    ctx.diagnostics()
        .report(
            DiagnosticCode.TOOL_SCHEMA_NOT_OBJECT,
            "Tool '"
                + name
                + "' has an "
                + key
                + " whose root is "
                + rootType(output)
                + ", but MCP structured results are objects; "
                + (never
                    ? "no result can match it, so the tool is listed without it."
                    : "the result is served as {\"result\": value} and listed with an object"
                        + " schema that says so."),
            file,
            doc.locate(pointer + "/" + key + (output.has("type") ? "/type" : "")),
            never
                ? "Remove the output_schema or describe the result object."
                : "Return an object and describe it with type: object, or keep the wrapped form.");
    return never ? null : output;
  }

  private static String rootType(JsonNode schema) {
    if (schema.isBoolean()) {
      return String.valueOf(schema.booleanValue());
    }
    JsonNode type = schema.get("type");
    return "type " + (type.isTextual() ? "'" + type.asText() + "'" : type.toString());
  }

  private void reportUnknownKeys(
      JsonNode entry, YamlDocument doc, String pointer, Path file, String name) {
    entry
        .fieldNames()
        .forEachRemaining(
            key -> {
              if (!KNOWN.contains(key) && hintKey(key) == null) {
                ctx.diagnostics()
                    .report(
                        DiagnosticCode.TOOL_KEY_UNKNOWN,
                        "Tool '" + name + "' has an unknown key '" + key + "'; it is ignored.",
                        file,
                        doc.locate(pointer + "/" + YamlDocument.escape(key)),
                        null);
              }
            });
  }

  /**
   * The canonical annotation a key names ({@code read_only_hint}, {@code readOnlyHint} and {@code
   * read-only-hint} all give {@code readonlyhint}), or null when it names none.
   */
  private static String hintKey(String key) {
    String known = HINT_KEYS.get(key);
    if (known != null) {
      return known.isEmpty() ? null : known;
    }
    String canonical = canonicalHint(key);
    if (HINT_KEYS.size() < MAX_HINT_KEYS) {
      HINT_KEYS.put(key, canonical == null ? "" : canonical);
    }
    return canonical;
  }

  private static String canonicalHint(String key) {
    String k = key.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    switch (k) {
      case "readonlyhint":
      case "destructivehint":
      case "idempotenthint":
      case "openworldhint":
      case "deferredhint":
        return k;
      default:
        return null;
    }
  }

  /** The nested {@code annotations} map wins whole; otherwise the flat shorthand keys. */
  private static ToolAnnotations annotations(JsonNode entry) {
    JsonNode nested = entry.get("annotations");
    JsonNode source = nested != null && nested.isObject() ? nested : entry;
    Boolean readOnly = null;
    Boolean destructive = null;
    Boolean idempotent = null;
    Boolean openWorld = null;
    Boolean deferred = null;
    // Later keys win, as they did when the hints were collected in a map.
    for (Map.Entry<String, JsonNode> e : source.properties()) {
      String hint = hintKey(e.getKey());
      if (hint == null || !e.getValue().isBoolean()) {
        continue;
      }
      Boolean value = e.getValue().asBoolean();
      switch (hint) {
        case "readonlyhint" -> readOnly = value;
        case "destructivehint" -> destructive = value;
        case "idempotenthint" -> idempotent = value;
        case "openworldhint" -> openWorld = value;
        default -> deferred = value;
      }
    }
    String title = source == nested ? YamlValues.text(nested.get("title")) : null;
    // Upstream's plain keys fill only what no annotation declares.
    readOnly = readOnly != null ? readOnly : flag(entry, "read_only");
    destructive = destructive != null ? destructive : flag(entry, "destructive");
    idempotent = idempotent != null ? idempotent : flag(entry, "idempotent");
    return new ToolAnnotations(title, readOnly, destructive, idempotent, openWorld, deferred);
  }

  private static Boolean flag(JsonNode entry, String key) {
    JsonNode v = entry.get(key);
    return v != null && v.isBoolean() ? v.booleanValue() : null;
  }

  private static NextTools nextTools(JsonNode entry) {
    JsonNode next = entry.has("next-tools") ? entry.get("next-tools") : entry.get("next_tools");
    if (next == null || !next.isObject()) {
      return NextTools.NONE;
    }
    return new NextTools(
        YamlValues.stringList(first(next, "on-success", "on_success", "onSuccess")),
        YamlValues.stringList(first(next, "on-failure", "on_failure", "onFailure")));
  }

  private static JsonNode first(JsonNode node, String... keys) {
    for (String k : keys) {
      if (node.has(k)) {
        return node.get(k);
      }
    }
    return null;
  }

  /** The declared timeout hint; 0 means no hint, as dcc-mcp-core reads it. */
  private static Integer timeout(JsonNode entry) {
    JsonNode t = first(entry, "timeout_hint_secs", "timeout-hint-secs");
    return t == null || t.isNull() || t.asInt() == 0 ? null : t.asInt();
  }

  private static Map<String, Object> extras(JsonNode entry) {
    Map<String, Object> extras = new LinkedHashMap<>();
    for (String key : EXTRAS) {
      if (entry.has(key) && !entry.get(key).isNull()) {
        extras.put(key, YamlValues.plain(entry.get(key)));
      }
    }
    return extras;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
