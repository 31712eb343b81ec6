package dev.skillport.model.skill;

import java.util.List;
import java.util.Objects;

/**
 * A named set of a skill's tools that a session activates or deactivates together.
 *
 * @param tools the member tool names (from each tool's {@code group:} field and the group entry)
 */
public record GroupSpec(
    String name, String description, List<String> tools, boolean defaultActive) {
  public GroupSpec {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    tools = Immutables.list(tools);
  }
}
