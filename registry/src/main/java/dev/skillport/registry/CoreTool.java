package dev.skillport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A platform tool that every session lists first ({@code search_skills}, {@code load_skill}, …).
 *
 * @param inputSchema listed as is
 * @param annotations MCP annotations object, or {@code null}
 */
public record CoreTool(
    String name, String description, JsonNode inputSchema, JsonNode annotations) {
  public CoreTool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    inputSchema = Objects.requireNonNull(inputSchema, "inputSchema").deepCopy();
    annotations = annotations == null ? null : annotations.deepCopy();
  }
}
