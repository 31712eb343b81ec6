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

  private final Gateway gateway;

  GatewayTools(Gateway gateway) {
    this.gateway = gateway;
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

  /** Runs the gateway tool {@code name}; empty when there is no such tool. */
  Answer call(String name, JsonNode args, InstanceClient.ProgressSink progress)
      throws InterruptedException {
    return switch (name) {
      case "search" -> search(args);
      case "describe" -> describe(args);
      case "load_skill" -> loadSkill(args);
      case "call" -> route(args, progress);
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
    Predicate<OwnedSkill> accepts = where(args);
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
      result = routed(s.instance(), "get_skill_info", args, null);
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
              JSON.createObjectNode().put("skill_name", s.skill().name()),
              null);
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

  private Answer route(JsonNode args, InstanceClient.ProgressSink progress)
      throws InterruptedException {
    String name = text(args, "name");
    if (name == null) {
      return Answer.failure("INVALID_ARGUMENTS", "name is required", null);
    }
    JsonNode arguments = args.get("arguments");
    if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
      return Answer.failure("INVALID_ARGUMENTS", "arguments must be a JSON object", null);
    }
    Target target = toolTarget(name, args);
    if (target.tool == null) {
      return target.failure;
    }
    OwnedTool t = target.tool;
    ObjectNode through = JSON.createObjectNode().put("name", t.skill() + "__" + t.tool());
    through.set(
        "arguments", arguments == null || arguments.isNull() ? JSON.createObjectNode() : arguments);
    try {
      return Answer.routed(routed(t.instance(), "call_tool", through, progress));
    } catch (RouteFailure e) {
      return e.answer;
    }
  }

  private Answer listInstances() {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode list = out.putArray("instances");
    CapabilityIndex index = gateway.index();
    gateway.registered().values().stream()
        .sorted((a, b) -> a.id().compareTo(b.id()))
        .forEach(
            e -> {
              ObjectNode item = e.toJson(JSON);
              InstanceCatalog c = index.catalogs().get(e.id());
              item.put("indexed", c != null);
              item.put("skills", c == null ? 0 : c.skills().size());
              item.put("missed_probes", gateway.misses(e.id()));
              item.put("health", gateway.misses(e.id()) == 0 ? "up" : "missing");
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

  /** Sends a tool call to {@code instance}; its death evicts it at once. */
  private JsonNode routed(
      InstanceEntry instance, String tool, JsonNode arguments, InstanceClient.ProgressSink progress)
      throws RouteFailure, InterruptedException {
    try {
      return gateway.client().callTool(instance.url(), tool, arguments, CALL_TIMEOUT, progress);
    } catch (InstanceClient.InstanceGoneException e) {
      gateway.evict(instance.id(), "a routed call found it gone (" + e.getMessage() + ")");
      throw new RouteFailure(gone(instance.id()));
    } catch (IOException e) {
      throw new RouteFailure(
          Answer.failure(
              "INSTANCE_FAILED",
              "instance " + instance.id() + " could not answer: " + e.getMessage(),
              null));
    }
  }
}
