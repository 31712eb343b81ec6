package dev.skillport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.model.skill.FrozenJson;
import java.util.Objects;

/**
 * A platform tool that every session lists first ({@code search_skills}, {@code load_skill}, …).
 *
 * @param inputSchema listed as is; kept as a frozen copy, like the annotations
 * @param annotations MCP annotations object, or {@code null}
 */
public record CoreTool(
    String name, String description, JsonNode inputSchema, JsonNode annotations) {
  public CoreTool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    // Frozen: the definitions are shared by every service and listing in the process.
    inputSchema = FrozenJson.freeze(Objects.requireNonNull(inputSchema, "inputSchema"));
    annotations = annotations == null ? null : FrozenJson.freeze(annotations);
  }
}
