package dev.skillport.api.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.stability.API;
import dev.skillport.api.tool.ToolContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * One script tool call for a {@link HostExecutor}.
 *
 * @param skill the skill's name
 * @param tool the tool's declared name
 * @param script the script file, absolute
 * @param skillDirectory the skill's folder (the working directory a subprocess would get)
 * @param arguments the validated arguments (a JSON object)
 * @param timeout how long the call may run
 * @param context progress, logging and cancellation of the call
 */
@API(status = API.Status.STABLE)
public record HostCall(
    String skill,
    String tool,
    Path script,
    Path skillDirectory,
    JsonNode arguments,
    Duration timeout,
    ToolContext context) {
  public HostCall {
    Objects.requireNonNull(skill, "skill");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(script, "script");
    Objects.requireNonNull(skillDirectory, "skillDirectory");
    arguments = Objects.requireNonNull(arguments, "arguments").deepCopy();
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive");
    }
    context = context == null ? ToolContext.NONE : context;
  }
}
