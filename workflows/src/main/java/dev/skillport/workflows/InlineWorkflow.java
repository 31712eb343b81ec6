package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.model.skill.RetryPolicy;
import dev.skillport.model.skill.StepPolicy;
import dev.skillport.model.skill.WorkflowSpec;
import dev.skillport.model.skill.WorkflowStep;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the inline {@code spec} of {@code workflows_run}: the same shape as a {@code
 * *.workflow.yaml} file, as JSON. Structural problems (no steps, a duplicate id, an unknown kind, a
 * missing field) are rejected here; tool names resolve at run time like a {@code tools/call} name,
 * and templates fail the step that uses them.
 */
public final class InlineWorkflow {
  private static final Set<String> KINDS =
      Set.of("tool", "foreach", "parallel", "branch", "approve");

  private final Set<String> ids = new HashSet<>();

  private InlineWorkflow() {}

  /** The spec; throws {@link IllegalArgumentException} naming the first problem. */
  public static WorkflowSpec parse(JsonNode spec) {
    if (!spec.isObject()) {
      throw new IllegalArgumentException("spec must be an object {name, steps, inputs?}");
    }
    JsonNode steps = spec.path("steps");
    if (!steps.isArray() || steps.isEmpty()) {
      throw new IllegalArgumentException("spec.steps must be a non-empty list");
    }
    InlineWorkflow reader = new InlineWorkflow();
    return new WorkflowSpec(
        spec.path("name").asText("inline"),
        spec.path("description").asText(""),
        spec.hasNonNull("inputs") ? spec.get("inputs") : null,
        reader.steps(steps, "steps"),
        null);
  }

  private List<WorkflowStep> steps(JsonNode list, String where) {
    List<WorkflowStep> out = new ArrayList<>();
    if (list == null || list.isNull() || list.isMissingNode()) {
      return out;
    }
    if (!list.isArray()) {
      throw new IllegalArgumentException(where + " must be a list");
    }
    for (int i = 0; i < list.size(); i++) {
      out.add(step(list.get(i), where + "[" + i + "]"));
    }
    return out;
  }

  private WorkflowStep step(JsonNode node, String where) {
    String id = required(node, "id", where);
    if (!ids.add(id)) {
      throw new IllegalArgumentException(where + ": step id '" + id + "' is used twice");
    }
    String kind = required(node, "kind", where).strip().toLowerCase(Locale.ROOT);
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          where + ": unknown kind '" + kind + "' (tool, foreach, parallel, branch, approve)");
    }
    StepPolicy policy = policy(node, where);
    return switch (kind) {
      case "tool" ->
          new WorkflowStep.Tool(id, policy, required(node, "tool", where), node.get("args"));
      case "foreach" ->
          new WorkflowStep.Foreach(
              id,
              policy,
              required(node, "items", where),
              node.hasNonNull("as") ? node.get("as").asText() : null,
              steps(node.get("steps"), where + ".steps"));
      case "parallel" ->
          new WorkflowStep.Parallel(id, policy, steps(node.get("steps"), where + ".steps"));
      case "branch" ->
          new WorkflowStep.Branch(
              id,
              policy,
              required(node, "on", where),
              steps(node.get("then"), where + ".then"),
              steps(node.get("else"), where + ".else"));
      default -> new WorkflowStep.Approve(id, policy, node.path("prompt").asText(""));
    };
  }

  private static StepPolicy policy(JsonNode node, String where) {
    try {
      return new StepPolicy(
          node.hasNonNull("timeout_secs") ? node.get("timeout_secs").asInt() : null,
          RetryPolicy.fromSpec(node.get("retry")),
          node.hasNonNull("idempotency_key") ? node.get("idempotency_key").asText() : null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  /**
   * The spec in the shape {@link #parse} reads back to an equal spec: what a run stores so that it
   * can be resumed after a restart whatever became of the skill that declared it.
   */
  public static ObjectNode toJson(WorkflowSpec spec) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("name", spec.name());
    o.put("description", spec.description());
    if (spec.inputs() != null) {
      o.set("inputs", spec.inputs().deepCopy());
    }
    write(spec.steps(), o.putArray("steps"));
    return o;
  }

  private static void write(List<WorkflowStep> list, ArrayNode into) {
    for (WorkflowStep step : list) {
      ObjectNode o = into.addObject().put("id", step.id()).put("kind", step.kind());
      writePolicy(step.policy(), o);
      step.accept(
          new WorkflowStep.Visitor<Void>() {
            @Override
            public Void tool(WorkflowStep.Tool t) {
              o.put("tool", t.tool());
              if (t.args() != null) {
                o.set("args", t.args().deepCopy());
              }
              return null;
            }

            @Override
            public Void foreach(WorkflowStep.Foreach f) {
              o.put("items", f.items());
              if (f.as() != null) {
                o.put("as", f.as());
              }
              write(f.steps(), o.putArray("steps"));
              return null;
            }

            @Override
            public Void parallel(WorkflowStep.Parallel p) {
              write(p.steps(), o.putArray("steps"));
              return null;
            }

            @Override
            public Void branch(WorkflowStep.Branch b) {
              o.put("on", b.on());
              write(b.then(), o.putArray("then"));
              write(b.otherwise(), o.putArray("else"));
              return null;
            }

            @Override
            public Void approve(WorkflowStep.Approve a) {
              o.put("prompt", a.prompt());
              return null;
            }
          });
    }
  }

  private static void writePolicy(StepPolicy policy, ObjectNode into) {
    if (policy.timeoutSecs() != null) {
      into.put("timeout_secs", policy.timeoutSecs());
    }
    RetryPolicy retry = policy.retry();
    if (!retry.equals(RetryPolicy.NONE)) {
      into.putObject("retry")
          .put("max_attempts", retry.maxAttempts())
          .put("backoff", retry.backoff().name().toLowerCase(Locale.ROOT))
          .put("initial_delay_ms", retry.initialDelayMs())
          .put("max_delay_ms", retry.maxDelayMs())
          .put("jitter", retry.jitter());
    }
    if (policy.idempotencyKey() != null) {
      into.put("idempotency_key", policy.idempotencyKey());
    }
  }

  private static String required(JsonNode node, String field, String where) {
    JsonNode v = node.get(field);
    if (v == null || !v.isValueNode() || v.asText().isBlank()) {
      throw new IllegalArgumentException(where + ": '" + field + "' is required");
    }
    return v.asText();
  }
}
