package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.skill.WorkflowStep;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The state of one run as reported and stored: the run's status and, for every step of the workflow
 * (nested ones included, in declaration order), its status, attempts, output and error. Changes
 * after the run finished are ignored, so a step that unwinds after a cancel cannot bring a
 * cancelled run back to life.
 */
public final class RunRecord {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Where a run is in its life. */
  enum Status {
    PENDING,
    RUNNING,
    AWAITING_APPROVAL,
    COMPLETED,
    FAILED,
    CANCELLED,
    INTERRUPTED;

    String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    boolean terminal() {
      return this != PENDING && this != RUNNING && this != AWAITING_APPROVAL;
    }
  }

  private final String id;
  private final String workflow;
  private final String skill;
  private final String sessionId;
  private final String owner;
  private final JsonNode inputs;
  private final JsonNode spec;
  private final String specHash;
  private final Instant createdAt;
  private final int resumes;
  private final Map<String, ObjectNode> steps = new LinkedHashMap<>();
  private Status status = Status.PENDING;
  private Instant startedAt;
  private Instant completedAt;
  private String currentStep;
  private String error;
  private JsonNode output;
  private int awaiting;

  RunRecord(
      String id,
      WorkflowSpec spec,
      String skill,
      String sessionId,
      String owner,
      JsonNode inputs,
      Instant createdAt) {
    this.id = id;
    this.workflow = spec.name();
    this.skill = skill;
    this.sessionId = sessionId;
    this.owner = owner;
    this.inputs = inputs.deepCopy();
    this.spec = InlineWorkflow.toJson(spec);
    this.specHash = ResumePlan.hash(this.spec);
    this.createdAt = createdAt;
    this.resumes = 0;
    declare(spec.steps());
  }

  /**
   * A stored run brought back to {@code pending} to be resumed by {@code sessionId}: the steps in
   * {@code kept} keep their stored state (status, output, attempts); every other step reads {@code
   * pending} again, its attempt history kept.
   */
  RunRecord(JsonNode stored, WorkflowSpec spec, Set<String> kept, String sessionId) {
    this.id = stored.path("run_id").asText();
    this.workflow = spec.name();
    this.skill = stored.path("skill").textValue();
    this.sessionId = sessionId;
    this.owner = stored.path(OWNER).textValue();
    this.inputs =
        stored.path("inputs").isObject() ? stored.get("inputs").deepCopy() : NODES.objectNode();
    this.spec = InlineWorkflow.toJson(spec);
    this.specHash = ResumePlan.hash(this.spec);
    this.createdAt = Instant.parse(stored.path("created_at").asText());
    this.resumes = stored.path("resumes").asInt(0) + 1;
    this.currentStep = stored.path("current_step").textValue();
    declare(spec.steps());
    for (JsonNode was : stored.path("steps")) {
      ObjectNode s = steps.get(was.path("id").asText());
      if (s == null) {
        continue;
      }
      if (kept.contains(was.path("id").asText())) {
        s.setAll((ObjectNode) was.deepCopy());
      } else {
        s.put("attempts", was.path("attempts").asInt(0));
        if (was.has("attempt_log")) {
          s.set("attempt_log", was.get("attempt_log").deepCopy());
        }
      }
    }
  }

  private void declare(List<WorkflowStep> list) {
    for (WorkflowStep step : list) {
      ObjectNode s = NODES.objectNode();
      s.put("id", step.id());
      s.put("kind", step.kind());
      s.put("status", "pending");
      s.put("attempts", 0);
      steps.put(step.id(), s);
      declare(nested(step));
    }
  }

  /** The steps inside a step, in declaration order ({@code then} before {@code else}). */
  static List<WorkflowStep> nested(WorkflowStep step) {
    return step.nested();
  }

  String id() {
    return id;
  }

  String workflow() {
    return workflow;
  }

  synchronized Status status() {
    return status;
  }

  synchronized boolean start(Instant now) {
    if (status != Status.PENDING) {
      return false;
    }
    status = Status.RUNNING;
    startedAt = now;
    return true;
  }

  /** Moves to a terminal state once; returns whether this call did. */
  synchronized boolean finish(Status end, Instant now, String why, JsonNode result) {
    if (status.terminal()) {
      return false;
    }
    status = end;
    completedAt = now;
    error = why;
    output = result == null ? null : result.deepCopy();
    if (end != Status.COMPLETED) {
      for (ObjectNode s : steps.values()) {
        String st = s.path("status").asText();
        if (st.equals("running") || st.equals("awaiting_approval")) {
          s.put("status", end == Status.FAILED ? "failed" : end.wire());
        }
      }
    }
    return true;
  }

  synchronized void stepStarted(String stepId, Instant now) {
    ObjectNode s = step(stepId);
    if (s == null) {
      return;
    }
    currentStep = stepId;
    s.put("status", "running");
    if (!s.hasNonNull("started_at")) {
      s.put("started_at", now.toString());
    }
  }

  synchronized void attemptStarted(String stepId, int attempt, Instant now) {
    ObjectNode s = step(stepId);
    if (s == null) {
      return;
    }
    s.put("attempts", s.path("attempts").asInt() + 1);
    s.put("status", "running");
    ArrayNode log =
        s.has("attempt_log") ? (ArrayNode) s.get("attempt_log") : s.putArray("attempt_log");
    log.addObject().put("attempt", attempt).put("started_at", now.toString());
  }

  synchronized void attemptFailed(String stepId, String why, long retryDelayMs) {
    ObjectNode s = step(stepId);
    if (s == null || !s.has("attempt_log")) {
      return;
    }
    ArrayNode log = (ArrayNode) s.get("attempt_log");
    ObjectNode last = (ObjectNode) log.get(log.size() - 1);
    last.put("error", why);
    if (retryDelayMs >= 0) {
      last.put("retry_delay_ms", retryDelayMs);
    }
  }

  synchronized void stepCompleted(String stepId, JsonNode out, boolean reused, Instant now) {
    ObjectNode s = step(stepId);
    if (s == null) {
      return;
    }
    s.put("status", "completed");
    s.set("output", out == null ? NODES.nullNode() : out.deepCopy());
    s.remove("error");
    if (reused) {
      s.put("reused", true);
    }
    s.put("completed_at", now.toString());
  }

  synchronized void stepFailed(String stepId, String why, Instant now) {
    ObjectNode s = step(stepId);
    if (s == null) {
      return;
    }
    s.put("status", "failed");
    s.put("error", why);
    s.put("completed_at", now.toString());
  }

  synchronized void stepSkipped(String stepId) {
    ObjectNode s = step(stepId);
    if (s != null && s.path("status").asText().equals("pending")) {
      s.put("status", "skipped");
    }
  }

  synchronized void approvalAwaited(String stepId) {
    ObjectNode s = step(stepId);
    if (s == null) {
      return;
    }
    s.put("status", "awaiting_approval");
    awaiting++;
    status = Status.AWAITING_APPROVAL;
  }

  synchronized void approvalSettled() {
    if (status.terminal()) {
      return;
    }
    awaiting = Math.max(0, awaiting - 1);
    if (awaiting == 0) {
      status = Status.RUNNING;
    }
  }

  /** A step's entry while the run may still change, else null. */
  private ObjectNode step(String stepId) {
    return status.terminal() ? null : steps.get(stepId);
  }

  /** The {@code workflows_get_status} shape. */
  synchronized ObjectNode toWire() {
    ObjectNode o = summary();
    o.put("terminal", status.terminal());
    o.put("skill", skill);
    o.put("spec_hash", specHash);
    o.set("inputs", inputs.deepCopy());
    o.put("created_at", createdAt.toString());
    o.put("started_at", startedAt == null ? null : startedAt.toString());
    o.put("completed_at", completedAt == null ? null : completedAt.toString());
    if (resumes > 0) {
      o.put("resumes", resumes);
    }
    ArrayNode list = o.putArray("steps");
    steps.values().forEach(s -> list.add(s.deepCopy()));
    o.set("output", output == null ? NODES.nullNode() : output.deepCopy());
    o.put("error", error);
    return o;
  }

  /** The principal that started the run, or null for the local caller. */
  String owner() {
    return owner;
  }

  /**
   * The stored form: the wire shape, the starting session, the run's owner and its spec (what a
   * resume runs).
   */
  synchronized ObjectNode toStored() {
    ObjectNode o = toWire().put("session_id", sessionId).put(OWNER, owner);
    o.set(SPEC, spec.deepCopy());
    return o;
  }

  /** The stored form's field naming the principal that started the run. */
  static final String OWNER = "owner";

  /** The stored form's field holding the run's spec, in the inline shape. */
  static final String SPEC = "spec";

  /**
   * A stored document in the {@code workflows_get_status} shape: without what only the store keeps.
   */
  static ObjectNode wire(JsonNode stored) {
    ObjectNode o = stored.deepCopy();
    o.remove("session_id");
    o.remove(OWNER);
    o.remove(SPEC);
    if (!o.has("workflow_id")) {
      o.put("workflow_id", o.path("run_id").asText());
    }
    if (!o.has("terminal")) {
      o.put("terminal", !ACTIVE.contains(o.path("status").asText()));
    }
    return o;
  }

  private static final Set<String> ACTIVE = Set.of("pending", "running", "awaiting_approval");

  /**
   * The {@code notifications/$/dcc.workflowUpdated} params: {@code {run_id, workflow, status,
   * current_step, steps: [{id, kind, status, attempts}], error}}.
   */
  synchronized ObjectNode toUpdate() {
    ObjectNode o = summary();
    ArrayNode list = o.putArray("steps");
    for (ObjectNode s : steps.values()) {
      list.addObject()
          .put("id", s.path("id").asText())
          .put("kind", s.path("kind").asText())
          .put("status", s.path("status").asText())
          .put("attempts", s.path("attempts").asInt());
    }
    o.put("error", error);
    return o;
  }

  private ObjectNode summary() {
    ObjectNode o = NODES.objectNode();
    o.put("run_id", id);
    o.put("workflow_id", id);
    o.put("workflow", workflow);
    o.put("status", status.wire());
    o.put("current_step", currentStep);
    return o;
  }

  /**
   * A stored run that a previous process left unfinished, marked interrupted; null when the
   * document was already terminal.
   */
  static ObjectNode interrupted(JsonNode stored, Instant now) {
    String st = stored.path("status").asText();
    if (!st.equals("pending") && !st.equals("running") && !st.equals("awaiting_approval")) {
      return null;
    }
    ObjectNode o = stored.deepCopy();
    o.put("status", Status.INTERRUPTED.wire());
    o.put("terminal", true);
    o.put("completed_at", now.toString());
    o.put("error", "the server stopped while the run was " + st);
    for (JsonNode s : o.path("steps")) {
      String ss = s.path("status").asText();
      if (ss.equals("running") || ss.equals("awaiting_approval")) {
        ((ObjectNode) s).put("status", "interrupted");
      }
    }
    return o;
  }
}
