package dev.skillport.server.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailure;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.Execution;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.ToolNames;
import dev.skillport.registry.ToolResolution;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CallOutcome;
import dev.skillport.runtime.CapabilityRequiredException;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.jobs.OwnedJobs;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.listing.ToolListing;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The REST skill API's operations, without HTTP: each takes what a request said and answers a
 * status and a JSON body. Every call, a job's status and a job's cancel included, goes through
 * {@link SkillportService#call} with the stateless era's state, exactly as a 2026-07-28 {@code
 * tools/call} does: the same name resolution, operator lists, guards, argument validation, jobs
 * owned by their caller, audit and statistics. The REST layer only shapes what comes back.
 */
public final class RestApi {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** What the audit trail writes as {@code via} for a call made here. */
  public static final String VIA = "rest";

  /** The most calls one {@code POST /v1/call_batch} may hold. */
  public static final int MAX_BATCH = 25;

  private final SkillportService service;
  private final OpenApiDocument openApi;

  public RestApi(SkillportService service, String version) {
    this.service = Objects.requireNonNull(service, "service");
    this.openApi = new OpenApiDocument(version);
  }

  /**
   * Who asks, and how the request is traced.
   *
   * @param principal the caller the request's token names (the local caller without one)
   * @param traceparent the request's W3C trace context, or null
   * @param cancelled whether the client went away (a running call then sees itself cancelled)
   */
  public record Caller(Principal principal, String traceparent, BooleanSupplier cancelled) {
    public Caller {
      Objects.requireNonNull(principal, "principal");
      Objects.requireNonNull(cancelled, "cancelled");
    }
  }

  /**
   * An answer: its HTTP status, the operation it counts as in the metrics, its JSON body, and for a
   * queued call the job's path ({@code Location}), else null.
   */
  public record Answer(int status, String operation, JsonNode body, String location) {
    static Answer of(int status, String operation, JsonNode body) {
      return new Answer(status, operation, body, null);
    }
  }

  /**
   * Answers {@code method path} (the path starting {@code /v1/}, percent-decoding left to here).
   *
   * @param query the query parameters (only {@code async} is read)
   * @param body the parsed request body, or null when there was none
   */
  public Answer handle(
      String method, String path, Map<String, String> query, JsonNode body, Caller caller) {
    String[] parts = path.substring("/v1/".length()).split("/", -1);
    String op = parts[0];
    boolean get = method.equals("GET") || method.equals("HEAD");
    boolean post = method.equals("POST");
    if (parts.length == 1 && op.equals("skills")) {
      return get ? skills() : notAllowed("skills", "GET");
    }
    if (parts.length == 2 && op.equals("skills")) {
      return get ? skill(decode(parts[1])) : notAllowed("skill", "GET");
    }
    if (parts.length == 2 && op.equals("tools")) {
      return get ? tool(decode(parts[1])) : notAllowed("tool", "GET");
    }
    if (parts.length == 3 && op.equals("tools") && parts[2].equals("call")) {
      if (!post) {
        return notAllowed("call", "POST");
      }
      if (body != null && !body.isObject()) {
        return error(400, "call", "INVALID_REQUEST", "the body must be the arguments object", null);
      }
      return call(decode(parts[1]), body, "true".equals(query.get("async")), caller);
    }
    if (parts.length == 1 && op.equals("call")) {
      return post ? call(body, caller) : notAllowed("call", "POST");
    }
    if (parts.length == 1 && op.equals("call_batch")) {
      return post ? batch(body, caller) : notAllowed("call_batch", "POST");
    }
    if (parts.length == 2 && op.equals("jobs")) {
      if (get) {
        return job(decode(parts[1]), caller);
      }
      return method.equals("DELETE")
          ? cancel(decode(parts[1]), caller)
          : notAllowed("job", "GET, DELETE");
    }
    if (parts.length == 1 && op.equals("openapi.json")) {
      return get
          ? Answer.of(200, "openapi", wire(openApi.render(service.catalog(), reachable())))
          : notAllowed("openapi", "GET");
    }
    return error(404, "unknown", "METHOD_NOT_FOUND", "no REST operation at " + path, OPENAPI_HINT);
  }

  private static final String OPENAPI_HINT = "GET /v1/openapi.json lists the operations";

  private static String decode(String segment) {
    return java.net.URLDecoder.decode(
        segment.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
  }

  private SessionState reachable() {
    return service.statelessState();
  }

  // ---- discovery ----

  private Answer skills() {
    Catalog catalog = service.catalog();
    SessionState state = reachable();
    ObjectNode out = NODES.objectNode();
    ArrayNode list = out.putArray("skills");
    for (Skill skill : catalog.skills()) {
      if (catalog.skill(skill.name()).orElse(null) != skill) {
        continue; // shadowed by a skill of a higher scope
      }
      ObjectNode entry = summary(skill, state);
      ArrayNode tools = entry.putArray("tools");
      if (state.view().isLoaded(skill.name())) {
        skill.tools().forEach(t -> tools.add(qualified(skill, t)));
      }
      list.add(entry);
    }
    return Answer.of(200, "skills", wire(out));
  }

  private static ObjectNode summary(Skill skill, SessionState state) {
    ObjectNode entry = NODES.objectNode();
    entry.put("name", skill.name());
    entry.put("description", skill.manifest().description());
    entry.put("state", skill.state().label());
    entry.put("scope", skill.scope().label());
    entry.put("callable", state.view().isLoaded(skill.name()));
    return entry;
  }

  private Answer skill(String name) {
    Catalog catalog = service.catalog();
    Optional<Skill> found = catalog.skill(name);
    if (found.isEmpty()) {
      return error(
          404, "skill", "SKILL_NOT_FOUND", "no skill named '" + name + "'", "GET /v1/skills");
    }
    Skill skill = found.get();
    SessionState state = reachable();
    ObjectNode out = summary(skill, state);
    out.put("instructions", skill.manifest().body());
    ArrayNode tools = out.putArray("tools");
    if (state.view().isLoaded(skill.name())) {
      skill.tools().forEach(t -> tools.add(describe(skill, t)));
    }
    return Answer.of(200, "skill", wire(out));
  }

  private Answer tool(String name) {
    ToolResolution resolution =
        ToolNames.resolveQualified(service.catalog(), reachable().view(), name);
    Optional<Skill> skill = resolution.owner();
    Optional<ToolSpec> tool = resolution.declared();
    if (skill.isEmpty() || tool.isEmpty() || skill.get().state() != SkillState.AVAILABLE) {
      return error(
          404,
          "tool",
          "ACTION_NOT_FOUND",
          "no callable tool named '" + name + "'",
          "GET /v1/skills lists each skill's tools by qualified name");
    }
    return Answer.of(200, "tool", wire(describe(skill.get(), tool.get())));
  }

  static String qualified(Skill skill, ToolSpec tool) {
    return skill.name() + ToolNames.QUALIFIER + tool.name();
  }

  /** A tool as {@code GET /v1/tools/{name}} shows it: its full input schema included. */
  static ObjectNode describe(Skill skill, ToolSpec tool) {
    ObjectNode out = NODES.objectNode();
    out.put("name", qualified(skill, tool));
    out.put("skill", skill.name());
    out.put("tool", tool.name());
    out.put("description", tool.description());
    out.set("inputSchema", tool.inputSchema().deepCopy());
    if (tool.outputSchema() != null) {
      out.set("outputSchema", tool.outputSchema().deepCopy());
    }
    out.set("annotations", ToolListing.annotationsWire(tool.annotations()));
    out.put("execution", tool.execution() == Execution.ASYNC ? "async" : "sync");
    if (tool.group() != null) {
      out.put("group", tool.group());
    }
    return out;
  }

  // ---- calls ----

  private Answer call(JsonNode body, Caller caller) {
    if (body == null || !body.isObject()) {
      return error(
          400,
          "call",
          "INVALID_REQUEST",
          "the body must be a JSON object {\"tool\", \"arguments\"}",
          OPENAPI_HINT);
    }
    return callEntry("call", (ObjectNode) body, caller);
  }

  /** One {@code {tool, arguments?, meta?}} entry (upstream's {@code tool_slug}/{@code params}). */
  private Answer callEntry(String operation, ObjectNode body, Caller caller) {
    JsonNode name = body.has("tool") ? body.get("tool") : body.get("tool_slug");
    if (name == null || !name.isTextual() || name.asText().isBlank()) {
      return error(
          400,
          operation,
          "INVALID_REQUEST",
          "the body needs \"tool\": a tool's qualified name",
          "GET /v1/skills lists each skill's tools by qualified name");
    }
    JsonNode args = body.has("arguments") ? body.get("arguments") : body.get("params");
    JsonNode meta = body.get("meta");
    if (meta != null && !meta.isNull() && !meta.isObject()) {
      return error(400, operation, "INVALID_REQUEST", "\"meta\" must be an object", null);
    }
    return run(operation, name.asText(), args, meta, caller);
  }

  private Answer call(String name, JsonNode args, boolean async, Caller caller) {
    ObjectNode meta = NODES.objectNode();
    if (async) {
      meta.putObject("dcc").put("async", true);
    }
    return run("call", name, args, meta, caller);
  }

  /** The one call path: a stateless call of {@code name} for {@code caller}, marked as REST's. */
  private Answer run(String operation, String name, JsonNode args, JsonNode meta, Caller caller) {
    CallMeta callMeta =
        CallMeta.fromRequest(meta, null, update -> {})
            .withCaller(caller.principal().name(), caller.traceparent())
            .statelessly(false, null)
            .via(VIA);
    CallOutcome outcome;
    try {
      outcome = service.call(reachable(), name, args, new Context(caller), callMeta);
    } catch (UnknownToolException e) {
      return error(404, operation, e.code().name(), e.getMessage(), e.hint());
    } catch (CapabilityRequiredException e) {
      return error(
          409,
          operation,
          "CAPABILITY_REQUIRED",
          e.getMessage(),
          "the tool needs an MCP client; call it over /mcp");
    }
    ObjectNode result = (ObjectNode) wire(SkillportService.render(outcome, callMeta));
    ObjectNode out = NODES.objectNode().put("tool", name);
    result.properties().forEach(f -> out.set(f.getKey(), f.getValue()));
    if (outcome.ranResult().isEmpty()) {
      String id = result.path("structuredContent").path("job_id").asText();
      return new Answer(202, operation, out, "/v1/jobs/" + id);
    }
    ToolResult ran = outcome.ranResult().get();
    if (!ran.isError()) {
      return Answer.of(200, operation, out);
    }
    ToolFailure failure = ran.failure();
    String code = failure != null ? failure.code() : "TOOL_ERROR";
    out.put("code", code);
    out.put("message", failure != null ? failure.message() : text(ran));
    if (failure != null && failure.hint() != null) {
      out.put("hint", failure.hint());
    }
    return Answer.of(RestStatus.of(code), operation, wire(out));
  }

  private static String text(ToolResult result) {
    StringBuilder out = new StringBuilder();
    result
        .content()
        .forEach(
            c -> {
              if (c instanceof dev.skillport.api.tool.Content.Text t) {
                out.append(out.length() == 0 ? "" : "\n").append(t.text());
              }
            });
    return out.length() == 0 ? "the tool reported an error" : out.toString();
  }

  private Answer batch(JsonNode body, Caller caller) {
    JsonNode calls = body == null ? null : body.get("calls");
    if (calls == null || !calls.isArray() || calls.isEmpty() || calls.size() > MAX_BATCH) {
      return error(
          400,
          "call_batch",
          "INVALID_REQUEST",
          "the body needs \"calls\": 1 to " + MAX_BATCH + " call objects",
          null);
    }
    boolean stopOnError = body.path("stop_on_error").asBoolean(false);
    ObjectNode out = NODES.objectNode();
    ArrayNode results = out.putArray("results");
    boolean stopped = false;
    for (int i = 0; i < calls.size(); i++) {
      JsonNode entry = calls.get(i);
      ObjectNode item = NODES.objectNode().put("index", i);
      if (entry.has("id")) {
        item.set("id", entry.get("id"));
      }
      if (stopped) {
        item.put("status", 0).put("skipped", true);
        results.add(item);
        continue;
      }
      Answer answer =
          entry.isObject()
              ? callEntry("call_batch", (ObjectNode) entry, caller)
              : error(400, "call_batch", "INVALID_REQUEST", "a call must be an object", null);
      item.put("status", answer.status());
      item.set("result", answer.body());
      results.add(item);
      stopped = stopOnError && answer.status() >= 400;
    }
    return Answer.of(200, "call_batch", out);
  }

  // ---- jobs ----

  private Answer job(String id, Caller caller) {
    ObjectNode args = NODES.objectNode().put("job_id", id).put("include_result", true);
    Answer answer = run("job", "jobs_get_status", args, null, caller);
    if (answer.status() != 200) {
      return answer;
    }
    return Answer.of(200, "job", answer.body().path("structuredContent"));
  }

  private Answer cancel(String id, Caller caller) {
    ObjectNode args = NODES.objectNode().put("job_id", id);
    Answer answer = run("job_cancel", "jobs_cancel", args, null, caller);
    if (answer.status() != 200) {
      return answer;
    }
    JsonNode result = answer.body().path("structuredContent");
    if (result.path("cancelled").asBoolean(false)) {
      return Answer.of(200, "job_cancel", result);
    }
    // Not cancelled: unknown to this caller (or another caller's), or finished already.
    return new OwnedJobs(service.jobs(), caller.principal())
        .status(id)
        .map(
            job ->
                error(
                    409,
                    "job_cancel",
                    "JOB_FINISHED",
                    "job '" + id + "' is " + job.status().wire() + " and cannot be cancelled",
                    "GET /v1/jobs/" + id + " shows its result"))
        .orElseGet(
            () ->
                error(
                    404,
                    "job_cancel",
                    "JOB_NOT_FOUND",
                    "no job with id '" + id + "'",
                    "a job is visible to the caller that started it only"));
  }

  // ---- answers ----

  private JsonNode wire(JsonNode node) {
    return service.redactor().wire(node);
  }

  private static Answer notAllowed(String operation, String allowed) {
    return error(
        405,
        operation,
        "METHOD_NOT_ALLOWED",
        "this path answers " + allowed + " only",
        OPENAPI_HINT);
  }

  /** An error answer: {@code {code, message, hint?}}. */
  static Answer error(int status, String operation, String code, String message, String hint) {
    ObjectNode body = NODES.objectNode().put("code", code).put("message", message);
    if (hint != null) {
      body.put("hint", hint);
    }
    return Answer.of(status, operation, body);
  }

  /** What a tool called over REST may use of its caller: no client to ask, no progress stream. */
  private static final class Context implements ToolContext {
    private final Caller caller;

    Context(Caller caller) {
      this.caller = caller;
    }

    @Override
    public void progress(double progress, Double total, String message) {}

    @Override
    public void log(String level, String message) {}

    @Override
    public boolean isCancelled() {
      return caller.cancelled().getAsBoolean();
    }

    @Override
    public Principal principal() {
      return caller.principal();
    }
  }
}
