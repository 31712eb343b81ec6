package dev.skillport.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.gateway.CapabilityIndex.OwnedSkill;
import dev.skillport.gateway.CapabilityIndex.OwnedTool;
import dev.skillport.model.skill.ToolSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The gateway's tools: {@code search}, {@code describe}, {@code load_skill}, {@code call} and
 * {@code list_instances}. Each answers a {@link Answer}; the ones that need an instance's answer
 * route the request to the instance that owns the skill or tool.
 */
final class GatewayTools {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long a routed call may take before the gateway stops waiting. */
  static final Duration CALL_TIMEOUT = Duration.ofMinutes(10);

  /** A tool's answer: a structured result (or failure) with its text. */
  record Answer(ObjectNode structured, boolean isError, JsonNode passThrough) {
    static Answer ok(ObjectNode structured) {
      return new Answer(structured, false, null);
    }

    static Answer failure(String code, String message, String hint) {
      ObjectNode s = JSON.createObjectNode().put("code", code).put("message", message);
      if (hint != null) {
        s.put("hint", hint);
      }
      return new Answer(s, true, null);
    }

    /** An instance's own tool result, handed back as it came. */
    static Answer routed(JsonNode result) {
      return new Answer(null, false, result);
    }
  }

  /** A tool of the gateway: its name, description and input schema. */
  record Definition(String name, String description, ObjectNode inputSchema) {}

  /** Separates the instance's part of a routed id from the instance's own id. */
  static final char SEP = '/';

  private final Gateway gateway;
  private final GatewayPolicy policy;
  // The caller of the request being answered (one request per thread).
  private final ThreadLocal<InstanceClient.Relay> relay = new ThreadLocal<>();

  GatewayTools(Gateway gateway) {
    this.gateway = gateway;
    this.policy = gateway.settings().policy();
  }

  /**
   * The caller's relay: its own token only, never the gateway's, so that an instance sees the
   * caller it would see without the gateway.
   */
  private InstanceClient.Relay relay() {
    InstanceClient.Relay r = relay.get();
    return r == null ? InstanceClient.Relay.NONE : r;
  }

  static List<Definition> definitions() {
    List<Definition> out = new ArrayList<>();
    out.add(
        new Definition(
            "search",
            "Finds skills across every Skillport instance (one ranking, as search_skills ranks"
                + " them). Filter by dcc (the host product) or instance. Each hit names its"
                + " instance; call its tools with call.",
            schema(
                prop("query", "string", "words to find; empty browses"),
                prop("dcc", "string", "only instances serving this host product"),
                prop("instance", "string", "only this instance"),
                prop("limit", "integer", "1-100, 20 by default"))));
    out.add(
        new Definition(
            "describe",
            "A skill (with its instance and every tool's full schema) or one tool:"
                + " name is a skill, instance/skill, skill__tool or instance/skill__tool.",
            required(
                schema(
                    prop("name", "string", "the skill or tool"),
                    prop("instance", "string", "the instance, when several have it"),
                    prop("dcc", "string", "the host product, when several have it")),
                "name")));
    out.add(
        new Definition(
            "load_skill",
            "Reads a skill on its instance: its instructions and every tool's full schema.",
            required(
                schema(
                    prop("skill_name", "string", "the skill, or instance/skill"),
                    prop("instance", "string", "the instance, when several have it"),
                    prop("dcc", "string", "the host product, when several have it")),
                "skill_name")));
    out.add(
        new Definition(
            "call",
            "Runs a tool on the instance that has it: name is instance/skill__tool, skill__tool"
                + " or the tool's name; when several instances have it, give instance or dcc.",
            required(
                schema(
                    prop("name", "string", "the tool"),
                    prop("arguments", "object", "the tool's arguments"),
                    prop("instance", "string", "the instance to run it on"),
                    prop("dcc", "string", "the host product to run it in")),
                "name")));
    out.add(
        new Definition(
            "list_instances",
            "The Skillport instances the gateway routes to: id, URL, host product, adapters,"
                + " catalog digest, protocol eras, version, skill count, last heartbeat.",
            schema()));
    return out;
  }

  private static ObjectNode prop(String name, String type, String description) {
    ObjectNode p = JSON.createObjectNode();
    p.putObject(name).put("type", type).put("description", description);
    return p;
  }

  private static ObjectNode schema(ObjectNode... props) {
    ObjectNode s = JSON.createObjectNode().put("type", "object");
    ObjectNode properties = s.putObject("properties");
    for (ObjectNode p : props) {
      properties.setAll(p);
    }
    return s;
  }

  private static ObjectNode required(ObjectNode schema, String... names) {
    ArrayNode r = schema.putArray("required");
    for (String n : names) {
      r.add(n);
    }
    return schema;
  }

  /**
   * Runs the gateway tool {@code name} for the caller {@code relay} names; null when there is no
   * such tool. {@code params} is the whole request (an {@code input_required} round's {@code
   * requestState} and {@code inputResponses} travel there).
   */
  Answer call(String name, JsonNode args, JsonNode params, InstanceClient.Relay relay)
      throws InterruptedException {
    this.relay.set(relay == null ? InstanceClient.Relay.NONE : relay);
    try {
      return dispatch(name, args, params == null ? JSON.createObjectNode() : params);
    } finally {
      this.relay.remove();
    }
  }

  private Answer dispatch(String name, JsonNode args, JsonNode params) throws InterruptedException {
    return switch (name) {
      case "search" -> search(args);
      case "describe" -> describe(args);
      case "load_skill" -> loadSkill(args);
      case "call" -> route(args, params);
      case "list_instances" -> listInstances();
      default -> null;
    };
  }

  private Answer search(JsonNode args) {
    int limit = args.path("limit").asInt(20);
    if (limit < 1 || limit > 100) {
      return Answer.failure("INVALID_ARGUMENTS", "limit must be 1-100", null);
    }
    String query = args.path("query").asText("");
    Predicate<OwnedSkill> accepts =
        where(args).and(o -> policy.admitsSkill(o.instance(), o.skill().name()));
    CapabilityIndex.Ranked ranked = gateway.index().search(query, accepts, limit);
    ObjectNode out = JSON.createObjectNode();
    out.put("total", ranked.total());
    out.put("query", query);
    ArrayNode skills = out.putArray("skills");
    for (CapabilityIndex.Hit hit : ranked.hits()) {
      OwnedSkill o = hit.owned();
      ObjectNode s = skills.addObject();
      s.put("name", o.skill().name());
      s.put("instance", o.instance().id());
      s.put("qualified_name", o.instance().id() + "/" + o.skill().name());
      s.put("description", o.skill().manifest().description());
      s.put("dcc", o.skill().manifest().extensions().dcc());
      s.put("instance_dcc", o.instance().dcc());
      s.put("scope", o.skill().scope().label());
      s.put("tools", o.skill().tools().size());
      ArrayNode names = s.putArray("tool_names");
      o.skill().tools().stream().map(ToolSpec::name).forEach(names::add);
      s.put("score", hit.score());
    }
    return Answer.ok(out);
  }

  /** The instance and dcc filters of a request. */
  private static Predicate<OwnedSkill> where(JsonNode args) {
    String instance = text(args, "instance");
    String dcc = text(args, "dcc");
    return s ->
        (instance == null || s.instance().id().equals(instance))
            && (dcc == null
                || s.instance().dcc().equalsIgnoreCase(dcc)
                || s.skill().manifest().extensions().dcc().equalsIgnoreCase(dcc));
  }

  private static String text(JsonNode args, String field) {
    JsonNode v = args.get(field);
    return v != null && v.isTextual() && !v.asText().isBlank() ? v.asText().strip() : null;
  }

  private Answer describe(JsonNode args) throws InterruptedException {
    String name = text(args, "name");
    if (name == null) {
      return Answer.failure("INVALID_ARGUMENTS", "name is required", null);
    }
    Target skillTarget = skillTarget(name, args);
    if (skillTarget.skill != null) {
      return skillInfo(skillTarget.skill, null);
    }
    Target toolTarget = toolTarget(name, args);
    if (toolTarget.tool != null) {
      OwnedTool t = toolTarget.tool;
      OwnedSkill s =
          gateway.index().skills(t.skill()).stream()
              .filter(o -> o.instance().id().equals(t.instance().id()))
              .findFirst()
              .orElse(null);
      if (s != null) {
        return skillInfo(s, t);
      }
    }
    // Say what is wrong with the more telling of the two readings (ambiguous, gone, unknown).
    boolean skillNotFound =
        "NOT_FOUND".equals(skillTarget.failure.structured().path("code").asText());
    return skillNotFound && toolTarget.failure != null ? toolTarget.failure : skillTarget.failure;
  }

  /** {@code get_skill_info} of the owning instance, with the instance (one tool of it if asked). */
  private Answer skillInfo(OwnedSkill s, OwnedTool tool) throws InterruptedException {
    ObjectNode args = JSON.createObjectNode().put("skill_name", s.skill().name());
    JsonNode result;
    try {
      result = routed(s.instance(), "get_skill_info", args);
    } catch (RouteFailure e) {
      return e.answer;
    }
    JsonNode info = result.path("structuredContent");
    if (result.path("isError").asBoolean() || !info.isObject()) {
      return Answer.routed(result);
    }
    ObjectNode out = JSON.createObjectNode();
    out.put("instance", s.instance().id());
    out.put("instance_dcc", s.instance().dcc());
    if (tool == null) {
      out.put("kind", "skill");
      out.put("qualified_name", s.instance().id() + "/" + s.skill().name());
      out.set("skill", info);
      return Answer.ok(out);
    }
    out.put("kind", "tool");
    out.put("qualified_name", tool.qualifiedName());
    out.put("skill", s.skill().name());
    for (JsonNode t : info.path("tools")) {
      if (tool.tool().equals(t.path("name").asText())) {
        out.set("tool", t);
        return Answer.ok(out);
      }
    }
    return Answer.failure(
        "NOT_FOUND",
        "instance " + s.instance().id() + " no longer describes " + tool.qualifiedName(),
        "search again: its catalog may have changed");
  }

  private Answer loadSkill(JsonNode args) throws InterruptedException {
    String name = text(args, "skill_name");
    if (name == null) {
      return Answer.failure("INVALID_ARGUMENTS", "skill_name is required", null);
    }
    Target target = skillTarget(name, args);
    if (target.skill == null) {
      return target.failure;
    }
    OwnedSkill s = target.skill;
    JsonNode result;
    try {
      result =
          routed(
              s.instance(),
              "load_skill",
              JSON.createObjectNode().put("skill_name", s.skill().name()));
    } catch (RouteFailure e) {
      return e.answer;
    }
    JsonNode loaded = result.path("structuredContent");
    if (result.path("isError").asBoolean() || !loaded.isObject()) {
      return Answer.routed(result);
    }
    ObjectNode out = ((ObjectNode) loaded).deepCopy();
    out.put("instance", s.instance().id());
    for (JsonNode t : out.path("tools")) {
      if (t instanceof ObjectNode tool) {
        tool.put(
            "qualified_name",
            s.instance().id() + "/" + s.skill().name() + "__" + tool.path("name").asText());
      }
    }
    return Answer.ok(out);
  }

  private Answer route(JsonNode args, JsonNode params) throws InterruptedException {
    String name = text(args, "name");
    if (name == null) {
      return Answer.failure("INVALID_ARGUMENTS", "name is required", null);
    }
    JsonNode arguments = args.get("arguments");
    if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
      return Answer.failure("INVALID_ARGUMENTS", "arguments must be a JSON object", null);
    }
    ObjectNode given =
        arguments == null || arguments.isNull()
            ? JSON.createObjectNode()
            : ((ObjectNode) arguments).deepCopy();
    if (JOB_TOOLS.contains(name)) {
      return job(name, given);
    }
    Target target = toolTarget(name, args);
    if (target.tool == null) {
      return target.failure;
    }
    OwnedTool t = target.tool;
    if (!policy.admitsTool(t.instance(), t.skill(), t.tool())) {
      return Answer.failure(
          "POLICY_REFUSED",
          t.qualifiedName() + " is not among the tools this gateway allows",
          "ask the gateway's operator (--allow-tool)");
    }
    ObjectNode through = JSON.createObjectNode();
    through.put("name", "call_tool");
    ObjectNode callArgs = through.putObject("arguments").put("name", t.skill() + "__" + t.tool());
    callArgs.set("arguments", given);
    JsonNode state = params.get("requestState");
    if (state != null && state.isTextual()) {
      Routed r = Routed.parse(state.asText());
      if (r == null || !r.instance.equals(t.instance().id())) {
        return Answer.failure(
            "INVALID_ARGUMENTS",
            "requestState belongs to another instance's round: call the tool again without it",
            null);
      }
      through.put("requestState", r.id);
    }
    if (params.get("inputResponses") instanceof ObjectNode responses) {
      through.set("inputResponses", responses);
    }
    try {
      if (policy.readOnly() && !readOnly(t)) {
        return Answer.failure(
            "POLICY_REFUSED",
            t.qualifiedName() + " is not read-only and this gateway only routes read-only tools",
            "ask the gateway's operator, or use a tool annotated readOnlyHint");
      }
      return Answer.routed(named(t.instance(), routedRequest(t.instance(), through)));
    } catch (RouteFailure e) {
      return e.answer;
    }
  }

  /** The instance's built-in tools that name a job (a 2025-era caller's async call). */
  private static final java.util.Set<String> JOB_TOOLS =
      java.util.Set.of("jobs_get_status", "jobs_cancel");

  /** {@code jobs_get_status} or {@code jobs_cancel} of a job id the gateway handed out. */
  private Answer job(String tool, ObjectNode given) throws InterruptedException {
    Routed r = Routed.parse(given.path("job_id").asText(""));
    InstanceEntry instance = r == null ? null : gateway.registered().get(r.instance);
    if (instance == null) {
      if (r != null && gateway.wasEvicted(r.instance)) {
        return gone(r.instance);
      }
      return Answer.failure(
          "NOT_FOUND",
          "no job " + given.path("job_id").asText("") + " is known to the gateway",
          "give the job_id the gateway's call answered (instance/job)");
    }
    given.put("job_id", r.id);
    try {
      return Answer.routed(named(instance, routed(instance, tool, given)));
    } catch (RouteFailure e) {
      return e.answer;
    }
  }

  /** Whether {@code t} declares itself read-only (asked of its instance as the caller). */
  private boolean readOnly(OwnedTool t) throws RouteFailure, InterruptedException {
    JsonNode info =
        routed(t.instance(), "get_skill_info", JSON.createObjectNode().put("skill_name", t.skill()))
            .path("structuredContent");
    for (JsonNode tool : info.path("tools")) {
      if (t.tool().equals(tool.path("name").asText())) {
        JsonNode annotations = tool.path("annotations");
        return annotations.path("readOnlyHint").asBoolean(false)
            || annotations.path("read_only_hint").asBoolean(false)
            || tool.path("read_only").asBoolean(false);
      }
    }
    return false;
  }

  /**
   * An instance's answer with the ids it minted made the gateway's: a task id, an {@code
   * input_required} round's state and a job id each get the instance's id in front, so that the
   * request that names them later reaches the same instance.
   */
  static JsonNode named(InstanceEntry instance, JsonNode result) {
    if (!(result instanceof ObjectNode)) {
      return result;
    }
    ObjectNode out = ((ObjectNode) result).deepCopy();
    if (out.path("taskId").isTextual()) {
      out.put("taskId", Routed.of(instance.id(), out.get("taskId").asText()));
    }
    if (out.path("requestState").isTextual()) {
      out.put("requestState", Routed.of(instance.id(), out.get("requestState").asText()));
    }
    if (out.path("structuredContent") instanceof ObjectNode structured
        && structured.path("job_id").isTextual()) {
      structured.put("job_id", Routed.of(instance.id(), structured.get("job_id").asText()));
    }
    return out;
  }

  /** An id an instance minted, as the gateway hands it out: {@code instance/id}. */
  record Routed(String instance, String id) {
    static String of(String instance, String id) {
      return instance + SEP + id;
    }

    /** The instance and its own id; null when {@code routed} names no instance. */
    static Routed parse(String routed) {
      int at = routed.indexOf(SEP);
      if (at <= 0 || at == routed.length() - 1) {
        return null;
      }
      String instance = routed.substring(0, at);
      return InstanceEntry.validId(instance)
          ? new Routed(instance, routed.substring(at + 1))
          : null;
    }
  }

  private Answer listInstances() {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode list = out.putArray("instances");
    CapabilityIndex index = gateway.index();
    gateway.registered().values().stream()
        .filter(policy::admitsInstance)
        .sorted((a, b) -> a.id().compareTo(b.id()))
        .forEach(
            e -> {
              ObjectNode item = e.toJson(JSON);
              InstanceCatalog c = index.catalogs().get(e.id());
              item.put("indexed", c != null);
              item.put("skills", c == null ? 0 : c.skills().size());
              item.put("missed_probes", gateway.misses(e.id()));
              item.put("health", gateway.state(e.id()));
              item.put("routed_requests", gateway.metrics().routedTo(e.id()));
              item.put("in_flight", gateway.inFlight(e.id()));
              list.add(item);
            });
    out.put("total", list.size());
    return Answer.ok(out);
  }

  /** A resolved skill or tool, or why there is none. */
  private record Target(OwnedSkill skill, OwnedTool tool, Answer failure) {
    static Target of(OwnedSkill skill) {
      return new Target(skill, null, null);
    }

    static Target of(OwnedTool tool) {
      return new Target(null, tool, null);
    }

    static Target failed(Answer failure) {
      return new Target(null, null, failure);
    }
  }

  /** Splits {@code instance/rest}; the instance part is null without a '/'. */
  private record Qualified(String instance, String rest) {
    static Qualified of(String name) {
      int slash = name.indexOf('/');
      return slash < 0
          ? new Qualified(null, name)
          : new Qualified(name.substring(0, slash), name.substring(slash + 1));
    }
  }

  private Target skillTarget(String name, JsonNode args) {
    Qualified q = Qualified.of(name);
    Target unknown = unknownInstance(q.instance);
    if (unknown != null) {
      return unknown;
    }
    Predicate<OwnedSkill> where = where(args);
    List<OwnedSkill> candidates =
        gateway.index().skills(q.rest).stream()
            .filter(s -> q.instance == null || s.instance().id().equals(q.instance))
            .filter(where)
            .filter(s -> policy.admitsSkill(s.instance(), s.skill().name()))
            .toList();
    if (candidates.size() == 1) {
      return Target.of(candidates.get(0));
    }
    if (candidates.isEmpty()) {
      return Target.failed(
          Answer.failure(
              "NOT_FOUND", "no instance has a skill named " + name, "find skills with search"));
    }
    return Target.failed(
        ambiguous(
            "skill " + name,
            candidates.stream().map(s -> s.instance().id() + "/" + s.skill().name()).toList()));
  }

  private Target toolTarget(String name, JsonNode args) {
    Qualified q = Qualified.of(name);
    Target unknown = unknownInstance(q.instance);
    if (unknown != null) {
      return unknown;
    }
    String instance = text(args, "instance");
    String dcc = text(args, "dcc");
    List<OwnedTool> candidates =
        gateway.index().tools(q.rest).stream()
            .filter(t -> q.instance == null || t.instance().id().equals(q.instance))
            .filter(t -> instance == null || t.instance().id().equals(instance))
            .filter(t -> dcc == null || t.instance().dcc().equalsIgnoreCase(dcc))
            .filter(t -> policy.admitsSkill(t.instance(), t.skill()))
            .toList();
    if (candidates.size() == 1) {
      return Target.of(candidates.get(0));
    }
    if (candidates.isEmpty()) {
      if (instance != null && gateway.wasEvicted(instance)) {
        return Target.failed(gone(instance));
      }
      return Target.failed(
          Answer.failure(
              "NOT_FOUND",
              "no instance has a tool named " + name,
              "find tools with search; call them by the names describe gives"));
    }
    return Target.failed(
        ambiguous("tool " + name, candidates.stream().map(OwnedTool::qualifiedName).toList()));
  }

  /** A failure when {@code id} names no indexed instance; null when it is null or indexed. */
  private Target unknownInstance(String id) {
    if (id == null || gateway.index().instance(id).isPresent()) {
      return null;
    }
    if (gateway.wasEvicted(id)) {
      return Target.failed(gone(id));
    }
    return Target.failed(
        Answer.failure(
            "INSTANCE_NOT_FOUND",
            "no instance " + id + " is registered",
            "list the instances with list_instances"));
  }

  private static Answer gone(String id) {
    return Answer.failure(
        "INSTANCE_GONE",
        "instance " + id + " is gone: it stopped answering and was removed from the gateway",
        "search again: another instance may have the skill");
  }

  private static Answer ambiguous(String what, List<String> candidates) {
    Answer a =
        Answer.failure(
            "AMBIGUOUS",
            what + " is on " + candidates.size() + " instances: " + String.join(", ", candidates),
            "call it by one of the qualified names, or give instance or dcc");
    ArrayNode c = a.structured().putArray("candidates");
    candidates.forEach(c::add);
    return a;
  }

  /** A routed request that got no answer of the instance's. */
  private static final class RouteFailure extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Answer answer;

    RouteFailure(Answer answer) {
      super(answer.structured().path("message").asText(), null, false, false);
      this.answer = answer;
    }
  }

  /** Sends a tool call to {@code instance} as the caller; its death evicts it at once. */
  private JsonNode routed(InstanceEntry instance, String tool, JsonNode arguments)
      throws RouteFailure, InterruptedException {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", arguments == null ? JSON.createObjectNode() : arguments);
    return routedRequest(instance, params);
  }

  private JsonNode routedRequest(InstanceEntry instance, ObjectNode params)
      throws RouteFailure, InterruptedException {
    try {
      return gateway.send(instance, "tools/call", params, relay());
    } catch (IOException e) {
      throw new RouteFailure(failure(instance, e));
    }
  }

  /** The answer a routed request that got no result of the instance's gives. */
  static Answer failure(InstanceEntry instance, IOException e) {
    if (e instanceof InstanceClient.InstanceGoneException) {
      return gone(instance.id());
    }
    if (e instanceof InstanceClient.InstanceTimeoutException) {
      return Answer.failure(
          "INSTANCE_TIMEOUT",
          "instance " + instance.id() + " did not answer in time: " + e.getMessage(),
          "the call may still be running there; an async tool returns a task to poll instead");
    }
    if (e instanceof Gateway.BusyException) {
      return Answer.failure("INSTANCE_BUSY", e.getMessage(), "try again in a moment");
    }
    return Answer.failure(
        "INSTANCE_FAILED",
        "instance " + instance.id() + " could not answer: " + e.getMessage(),
        null);
  }
}
