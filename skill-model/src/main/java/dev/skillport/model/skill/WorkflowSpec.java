package dev.skillport.model.skill;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A workflow declared in a {@code *.workflow.yaml} file.
 *
 * @param inputs the declared inputs as written (a JSON Schema or a name-to-spec map), or null
 */
public record WorkflowSpec(
    String name, String description, JsonNode inputs, List<WorkflowStep> steps, Path source) {
  public WorkflowSpec {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    inputs = inputs == null ? null : inputs.deepCopy();
    steps = List.copyOf(steps);
  }
}
