package dev.skillport.api.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * One call of a tool.
 *
 * @param skill the skill's name
 * @param tool the tool's declared name
 * @param arguments the validated arguments (a JSON object)
 */
@API(status = API.Status.STABLE)
public record ToolInvocation(String skill, String tool, JsonNode arguments, ToolContext context) {
  public ToolInvocation {
    Objects.requireNonNull(skill, "skill");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(arguments, "arguments");
    context = context == null ? ToolContext.NONE : context;
  }
}
