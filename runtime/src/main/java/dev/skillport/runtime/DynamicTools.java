package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.ToolNames;
import dev.skillport.registry.ToolResolution;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The tools callers register at run time with {@code register_tool} (dcc-mcp-core's dynamic tools,
 * decision 0060). Each belongs to the caller that registered it and, in the 2025-11-25 era, to that
 * caller's session: only that owner lists, calls or removes it, anyone else gets the answer an
 * unknown name gets. A dynamic tool never enters a {@code tools/list}; it is called by the name
 * {@code register_tool} returned (with {@code call_tool} in the 2026-07-28 era).
 *
 * <p>What one runs: by default only an existing skill tool ({@code tool_spec.tool}, a qualified
 * {@code <skill>__<tool>} name) with preset arguments under its own name and input schema, so the
 * call passes the target's access, validation, path rules, audit and redaction exactly as a direct
 * call. Upstream's {@code tool_spec.code} (a Python body given by the caller) runs only on a server
 * started with {@code --allow-dynamic-code}, as a script under the script runner's limits.
 */
public final class DynamicTools {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The prefix of every assigned name. */
  public static final String PREFIX = "dyn__";

  static final String REGISTER = "register_tool";
  static final String DEREGISTER = "deregister_tool";
  static final String LIST = "list_dynamic_tools";

  /** The core tools that manage dynamic tools; none of them can be a dynamic tool's target. */
  public static final Set<String> NAMES = Set.of(REGISTER, DEREGISTER, LIST);

  /** Longest base name: the assigned {@code dyn__<name>_<6 hex>} stays within 64 characters. */
  static final int MAX_BASE_NAME = 64 - PREFIX.length() - 7;

  static final int MAX_CODE_BYTES = 256 * 1024;
  static final long DEFAULT_TTL_SECS = 3600;
  static final long MAX_TTL_SECS = 24 * 3600;
  static final int DEFAULT_TIMEOUT_SECS = 30;
  static final int MAX_TIMEOUT_SECS = 3600;

  /** How many dynamic tools one owner (a caller, or a caller's session) may have at once. */
  static final int MAX_PER_OWNER = 64;

  private static final Pattern BASE_NAME =
      Pattern.compile("[A-Za-z0-9_-]{1," + MAX_BASE_NAME + "}");
  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * What a tool's input schema is checked against, as a declared tool's is: JSON Schema 2020-12.
   */
  private static final JsonNode META_SCHEMA =
      NODES.objectNode().put("$ref", "https://json-schema.org/draft/2020-12/schema");

  /** Runs a dynamic tool's code; only asked when the server allows code. */
  @FunctionalInterface
  public interface CodeRunner {
    /**
     * Runs {@code tool}'s code with {@code arguments} bound to {@code params}.
     *
     * @param ctx the call's context (cancellation, progress, the caller)
     */
    ToolResult run(Tool tool, JsonNode arguments, ToolContext ctx);
  }

  /**
   * One registered tool.
   *
   * @param name the assigned name, {@code dyn__<original>_<6 hex>}
   * @param owner the registering caller's principal name, null for the local caller
   * @param session the registering session, null for a 2026-07-28 (stateless) caller
   * @param original the base name the caller gave
   * @param target the qualified skill tool it calls, or null for a code tool
   * @param preset the arguments given with the target, under the call's own
   * @param code the Python body of a code tool, or null
   * @param inputSchema what the call's arguments are validated against
   * @param dcc the host whose Python runs the code, or null
   */
  public record Tool(
      String name,
      String owner,
      SessionState session,
      String original,
      String description,
      String target,
      ObjectNode preset,
      String code,
      ObjectNode inputSchema,
      boolean readOnly,
      boolean destructive,
      int timeoutSecs,
      String dcc,
      Instant expires) {
    /** Whether this is a code tool rather than a call of a skill tool. */
    public boolean isCode() {
      return code != null;
    }

    boolean ownedBy(Principal caller, SessionState from) {
      return caller.owns(owner) && session == scope(from);
    }
  }

  private final Map<String, Tool> tools = new ConcurrentHashMap<>();
  private final ArgumentValidator validator = new ArgumentValidator();
  private final Clock clock;
  // Null when code is not allowed.
  private final CodeRunner code;

  /**
   * @param code runs code tools; null keeps the server from accepting {@code tool_spec.code}
   */
  public DynamicTools(CodeRunner code) {
    this(code, Clock.systemUTC());
  }

  DynamicTools(CodeRunner code, Clock clock) {
    this.code = code;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A registry that accepts only calls of existing tools. */
  public static DynamicTools toolsOnly() {
    return new DynamicTools(null);
  }

  /** Whether {@code tool_spec.code} is accepted. */
  public boolean allowsCode() {
    return code != null;
  }

  /** The session a tool registered from {@code session} belongs to: none for stateless calls. */
  private static SessionState scope(SessionState session) {
    return session.isStateless() ? null : session;
  }

  /** The caller's live dynamic tool called {@code name}, if it has one. */
  public Optional<Tool> find(SessionState session, Principal caller, String name) {
    if (!name.startsWith(PREFIX)) {
      return Optional.empty();
    }
    Tool t = tools.get(name);
    if (t == null || !t.ownedBy(caller, session)) {
      return Optional.empty();
    }
    if (expired(t)) {
      tools.remove(name, t);
      return Optional.empty();
    }
    return Optional.of(t);
  }

  /** Forgets every tool of {@code session}, which closed. */
  public void sessionClosed(SessionState session) {
    tools.values().removeIf(t -> t.session() == session);
  }

  /**
   * Why {@code arguments} do not fit {@code tool}'s input schema, one line per violation; empty
   * when they do.
   */
  public List<String> violations(Tool tool, JsonNode arguments) {
    return validator.violations(tool.inputSchema(), arguments);
  }

  /** Runs a code tool; refused when the server no longer allows code. */
  public ToolResult runCode(Tool tool, JsonNode arguments, ToolContext ctx) {
    if (code == null) {
      return codeDisabled();
    }
    return code.run(tool, arguments, ctx);
  }

  private boolean expired(Tool t) {
    return !clock.instant().isBefore(t.expires());
  }

  private void evictExpired() {
    Instant now = clock.instant();
    tools.values().removeIf(t -> !now.isBefore(t.expires()));
  }

  // ---------------------------------------------------------------- register_tool

  /** {@code register_tool}: checks a {@code tool_spec} and registers it for the caller. */
  public ToolResult register(
      Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    JsonNode spec = args.get("tool_spec");
    if (spec == null || !spec.isObject()) {
      return invalid(
          "Missing or invalid tool_spec parameter",
          "pass tool_spec: {name, description, tool (a <skill>__<tool> to call) or code}");
    }
    String base = spec.path("name").asText("");
    if (!spec.path("name").isTextual() || !BASE_NAME.matcher(base).matches()) {
      return invalid(
          "tool_spec.name is empty or contains invalid characters (allowed: a-z A-Z 0-9 _ -, at"
              + " most "
              + MAX_BASE_NAME
              + ")",
          null);
    }
    String description = spec.path("description").asText("");
    if (description.isBlank()) {
      return invalid("tool_spec.description is empty", null);
    }
    boolean hasTool = spec.hasNonNull("tool");
    boolean hasCode = spec.hasNonNull("code");
    if (hasTool == hasCode) {
      return invalid(
          hasTool
              ? "tool_spec has both tool and code; give one"
              : "tool_spec needs tool (the qualified name of a skill tool to call) or code",
          "tool: \"<skill>__<tool>\" with optional arguments is always accepted; code only where"
              + " the server allows it");
    }
    Object what = hasCode ? checkCode(spec) : checkTarget(catalog, session, spec);
    if (what instanceof ToolResult refusal) {
      return refusal;
    }
    Object schema = inputSchema(spec);
    if (schema instanceof ToolResult refusal) {
      return refusal;
    }
    Long ttl = positive(spec, "ttl_secs", DEFAULT_TTL_SECS);
    Long timeout = positive(spec, "timeout_sec", DEFAULT_TIMEOUT_SECS);
    if (ttl == null || timeout == null) {
      return invalid("tool_spec.ttl_secs and timeout_sec must be positive integers", null);
    }
    ttl = Math.min(ttl, MAX_TTL_SECS);
    String dcc = spec.path("dcc").isTextual() ? spec.get("dcc").asText() : null;
    Principal caller = ctx.principal();
    evictExpired();
    long owned = tools.values().stream().filter(t -> t.ownedBy(caller, session)).count();
    if (owned >= MAX_PER_OWNER) {
      return invalid(
          "this caller already has " + MAX_PER_OWNER + " dynamic tools",
          "deregister_tool the ones no longer needed");
    }
    Tool tool =
        new Tool(
            freshName(base),
            caller.name(),
            scope(session),
            base,
            description,
            hasCode ? null : (String) what,
            hasCode ? NODES.objectNode() : preset(spec),
            hasCode ? (String) what : null,
            (ObjectNode) schema,
            spec.path("read_only_hint").asBoolean(true),
            spec.path("destructive_hint").asBoolean(false),
            (int) Math.min(timeout, MAX_TIMEOUT_SECS),
            dcc,
            clock.instant().plus(Duration.ofSeconds(ttl)));
    tools.put(tool.name(), tool);
    ObjectNode out = NODES.objectNode();
    out.put("success", true);
    out.put("tool_name", tool.name());
    out.put("expires_in_sec", ttl);
    out.put(
        "message",
        "Tool '"
            + tool.name()
            + "' registered. Call it via "
            + (session.isStateless() ? "call_tool." : "tools/call."));
    if (tool.target() != null) {
      out.put("tool", tool.target());
    }
    return ToolResult.structured(out);
  }

  private Object checkCode(JsonNode spec) {
    if (code == null) {
      return codeDisabled();
    }
    String body = spec.path("code").asText("");
    if (!spec.get("code").isTextual() || body.isBlank()) {
      return invalid("tool_spec.code is empty", null);
    }
    if (body.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_CODE_BYTES) {
      return invalid(
          "tool_spec.code exceeds the maximum size of " + MAX_CODE_BYTES + " bytes", null);
    }
    String language = spec.path("language").asText("python");
    if (!language.equals("python")) {
      return invalid("unsupported language \"" + language + "\"; only 'python' is supported", null);
    }
    return body;
  }

  private static ToolResult codeDisabled() {
    return ToolResult.failure(
        ToolFailureCode.DYNAMIC_CODE_DISABLED,
        "this server does not run code given by a caller",
        "give tool_spec.tool: \"<skill>__<tool>\" (with preset arguments) instead, or ask the"
            + " operator to serve with --allow-dynamic-code");
  }

  /** The qualified skill tool {@code tool_spec.tool} names, or a refusal. */
  private static Object checkTarget(Catalog catalog, SessionState session, JsonNode spec) {
    String target = spec.get("tool").asText("");
    if (!spec.get("tool").isTextual()
        || target.startsWith(PREFIX)
        || NAMES.contains(target)
        || target.equals(CallRouter.CALL_TOOL)) {
      return ToolResult.failure(
          ToolFailureCode.INVALID_ARGUMENTS,
          "tool_spec.tool must name a skill's tool, not a dynamic or core tool",
          "use the qualified <skill>__<tool> name search_tools or load_skill shows");
    }
    ToolResolution found = ToolNames.resolveQualified(catalog, session.view(), target);
    if (found.owner().isEmpty()) {
      return ToolResult.failure(
          ToolFailureCode.ACTION_NOT_FOUND,
          "no skill tool is called '" + target + "'",
          "use the qualified <skill>__<tool> name search_tools or load_skill shows");
    }
    if (!spec.path("arguments").isMissingNode()
        && !spec.get("arguments").isNull()
        && !spec.get("arguments").isObject()) {
      return invalid("tool_spec.arguments must be a JSON object", null);
    }
    return target;
  }

  private static ObjectNode preset(JsonNode spec) {
    JsonNode a = spec.get("arguments");
    return a != null && a.isObject() ? ((ObjectNode) a).deepCopy() : NODES.objectNode();
  }

  /**
   * The input schema of {@code tool_spec}: {@code parameters} is upstream's map of property
   * schemas; {@code required} (ours) lists the ones a call must give. Checked by compiling it, as a
   * declared tool's schema is.
   */
  private Object inputSchema(JsonNode spec) {
    ObjectNode schema = NODES.objectNode().put("type", "object");
    JsonNode params = spec.get("parameters");
    ObjectNode properties = schema.putObject("properties");
    if (params != null && !params.isNull()) {
      if (!params.isObject()) {
        return invalid(
            "tool_spec.parameters must be a map of property names to JSON Schemas", null);
      }
      for (Map.Entry<String, JsonNode> p : params.properties()) {
        if (!p.getValue().isObject() && !p.getValue().isBoolean()) {
          return invalid("tool_spec.parameters." + p.getKey() + " is not a JSON Schema", null);
        }
        properties.set(p.getKey(), p.getValue().deepCopy());
      }
    }
    JsonNode required = spec.get("required");
    if (required != null && !required.isNull()) {
      if (!required.isArray()) {
        return invalid("tool_spec.required must be an array of property names", null);
      }
      ArrayNode names = schema.putArray("required");
      for (JsonNode r : required) {
        if (!r.isTextual() || !properties.has(r.asText())) {
          return invalid(
              "tool_spec.required names " + r + ", which parameters does not declare", null);
        }
        names.add(r.asText());
      }
    }
    List<String> problems;
    try {
      problems = validator.violations(META_SCHEMA, schema);
    } catch (RuntimeException e) {
      problems = List.of(String.valueOf(e.getMessage()));
    }
    if (!problems.isEmpty()) {
      return invalid(
          "tool_spec.parameters is not valid JSON Schema 2020-12: " + String.join("; ", problems),
          null);
    }
    return schema;
  }

  private static Long positive(JsonNode spec, String field, long otherwise) {
    JsonNode v = spec.get(field);
    if (v == null || v.isNull()) {
      return otherwise;
    }
    return v.canConvertToLong() && v.isIntegralNumber() && v.asLong() > 0 ? v.asLong() : null;
  }

  private String freshName(String base) {
    byte[] bytes = new byte[3];
    while (true) {
      RANDOM.nextBytes(bytes);
      String name = PREFIX + base + "_" + HexFormat.of().formatHex(bytes);
      if (!tools.containsKey(name)) {
        return name;
      }
    }
  }

  // ---------------------------------------------------------------- deregister_tool

  /**
   * {@code deregister_tool}: removes one of the caller's tools; succeeds whether or not it had one
   * by that name, as upstream does, so another caller's name reads as an unknown one.
   */
  public ToolResult deregister(SessionState session, JsonNode args, ToolContext ctx) {
    JsonNode name = args.get("tool_name");
    if (name == null || !name.isTextual() || name.asText().isBlank()) {
      return invalid("Missing tool_name parameter", "pass the name register_tool gave");
    }
    Tool t = find(session, ctx.principal(), name.asText()).orElse(null);
    boolean removed = t != null && tools.remove(t.name(), t);
    ObjectNode out = NODES.objectNode();
    out.put("success", true);
    out.put("removed", removed);
    out.put("tool_name", name.asText());
    return ToolResult.structured(out);
  }

  // ---------------------------------------------------------------- list_dynamic_tools

  /** {@code list_dynamic_tools}: the caller's live tools, oldest name first. */
  public ToolResult list(SessionState session, ToolContext ctx) {
    evictExpired();
    Principal caller = ctx.principal();
    Instant now = clock.instant();
    List<Tool> mine = new ArrayList<>();
    for (Tool t : tools.values()) {
      if (t.ownedBy(caller, session)) {
        mine.add(t);
      }
    }
    mine.sort(Comparator.comparing(Tool::name));
    ObjectNode out = NODES.objectNode();
    ArrayNode items = out.putArray("dynamic_tools");
    for (Tool t : mine) {
      ObjectNode o = items.addObject();
      o.put("tool_name", t.name());
      o.put("original_name", t.original());
      o.put("description", t.description());
      o.put("language", t.isCode() ? "python" : "tool");
      o.put("read_only_hint", t.readOnly());
      o.put("destructive_hint", t.destructive());
      o.put("expires_in_sec", Math.max(0, Duration.between(now, t.expires()).toSeconds()));
      if (t.target() != null) {
        o.put("tool", t.target());
        o.set("arguments", t.preset());
      }
      o.set("input_schema", t.inputSchema());
    }
    out.put("count", mine.size());
    return ToolResult.structured(out);
  }

  private static ToolResult invalid(String message, String hint) {
    return ToolResult.failure(ToolFailureCode.INVALID_ARGUMENTS, message, hint);
  }
}
