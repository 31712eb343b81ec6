package dev.skillport.model.skill;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * One step of a workflow; the step kinds form a closed set, handled through {@link
 * #accept(Visitor)} so that a new kind fails to compile wherever it is not.
 */
public sealed interface WorkflowStep {
  /** Calls the {@code visitor} method of this kind. */
  <R> R accept(Visitor<R> visitor);

  /** The steps inside this one, in declaration order ({@code then} before {@code else}). */
  List<WorkflowStep> nested();

  /**
   * One method per step kind.
   *
   * @param <R> what the visit returns
   */
  interface Visitor<R> {
    R tool(Tool step);

    R foreach(Foreach step);

    R parallel(Parallel step);

    R branch(Branch step);

    R approve(Approve step);
  }

  /** Unique within its workflow. */
  String id();

  StepPolicy policy();

  /** The kind as written in YAML ({@code tool}, {@code foreach}, …). */
  String kind();

  /** Calls a tool with templated arguments. */
  record Tool(String id, StepPolicy policy, String tool, JsonNode args) implements WorkflowStep {
    public Tool {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(tool, "tool");
      policy = policy == null ? StepPolicy.DEFAULT : policy;
      args = args == null ? null : args.deepCopy();
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.tool(this);
    }

    @Override
    public List<WorkflowStep> nested() {
      return List.of();
    }

    @Override
    public String kind() {
      return "tool";
    }
  }

  /** Runs its steps once per item selected by a JSONPath. */
  record Foreach(String id, StepPolicy policy, String items, String as, List<WorkflowStep> steps)
      implements WorkflowStep {
    public Foreach {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(items, "items");
      policy = policy == null ? StepPolicy.DEFAULT : policy;
      as = as == null ? "item" : as;
      steps = List.copyOf(steps);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.foreach(this);
    }

    @Override
    public List<WorkflowStep> nested() {
      return steps;
    }

    @Override
    public String kind() {
      return "foreach";
    }
  }

  /** Runs its steps concurrently. */
  record Parallel(String id, StepPolicy policy, List<WorkflowStep> steps) implements WorkflowStep {
    public Parallel {
      Objects.requireNonNull(id, "id");
      policy = policy == null ? StepPolicy.DEFAULT : policy;
      steps = List.copyOf(steps);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.parallel(this);
    }

    @Override
    public List<WorkflowStep> nested() {
      return steps;
    }

    @Override
    public String kind() {
      return "parallel";
    }
  }

  /** Chooses {@code then} or {@code otherwise} by a templated condition. */
  record Branch(
      String id,
      StepPolicy policy,
      String on,
      List<WorkflowStep> then,
      List<WorkflowStep> otherwise)
      implements WorkflowStep {
    public Branch {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(on, "on");
      policy = policy == null ? StepPolicy.DEFAULT : policy;
      then = List.copyOf(then);
      otherwise = List.copyOf(otherwise);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.branch(this);
    }

    @Override
    public List<WorkflowStep> nested() {
      return Stream.concat(then.stream(), otherwise.stream()).toList();
    }

    @Override
    public String kind() {
      return "branch";
    }
  }

  /** Waits for a human approval. */
  record Approve(String id, StepPolicy policy, String prompt) implements WorkflowStep {
    public Approve {
      Objects.requireNonNull(id, "id");
      policy = policy == null ? StepPolicy.DEFAULT : policy;
      prompt = prompt == null ? "" : prompt;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.approve(this);
    }

    @Override
    public List<WorkflowStep> nested() {
      return List.of();
    }

    @Override
    public String kind() {
      return "approve";
    }
  }
}
