package dev.skillport.api.skill;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/** One step of a workflow; the step kinds form a closed set. */
public sealed interface WorkflowStep {
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
    public String kind() {
      return "approve";
    }
  }
}
