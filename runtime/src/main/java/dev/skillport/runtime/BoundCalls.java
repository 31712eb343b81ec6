package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.skill.ToolSpec;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of a call that every caller of a bound tool takes the same way, the server and {@code
 * SkillTestKit} alike: checking the arguments against the input schema, and running a Java handler
 * with its exceptions turned into tool failures.
 */
public final class BoundCalls {
  private static final Logger LOG = LoggerFactory.getLogger(BoundCalls.class);

  private BoundCalls() {}

  /**
   * The {@code INVALID_ARGUMENTS} failure for {@code args} against {@code tool}'s input schema, or
   * null when they conform (or the schema cannot be used, which the loader has reported).
   */
  public static ToolResult invalidArguments(
      ArgumentValidator validator, String skill, ToolSpec tool, JsonNode args) {
    List<String> violations;
    try {
      violations = validator.violations(tool.inputSchema(), args);
    } catch (RuntimeException e) {
      LOG.warn("input schema of {}/{} could not be used: {}", skill, tool.name(), e.toString());
      violations = List.of();
    }
    if (violations.isEmpty()) {
      return null;
    }
    return ToolResult.failure(
        ToolFailureCode.INVALID_ARGUMENTS,
        "arguments do not match the input schema: " + String.join("; ", violations),
        "fix every listed argument and call again");
  }

  /** Runs a Java handler; a {@code null} result is an empty text, an exception a failure. */
  public static ToolResult callHandler(ToolHandler handler, ToolInvocation invocation) {
    try {
      ToolResult result = handler.call(invocation);
      return result == null ? ToolResult.text("") : result;
    } catch (ClientRequestException e) {
      return e.reason() == ClientRequestException.Reason.INPUT_REQUIRED
          ? ToolResult.failure(
              ToolFailureCode.INPUT_REQUIRED, "the client is asked for input", null)
          : ToolResult.failure(
              ToolFailureCode.HANDLER_FAILED,
              e.getClass().getSimpleName() + ": " + e.getMessage(),
              null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ToolResult.failure(ToolFailureCode.CANCELLED, "the call was interrupted", null);
    } catch (Exception e) {
      LOG.debug("handler of {}/{} failed", invocation.skill(), invocation.tool(), e);
      return ToolResult.failure(
          ToolFailureCode.HANDLER_FAILED,
          e.getClass().getSimpleName() + ": " + e.getMessage(),
          null);
    }
  }

  /** The failure of a handler-bound tool whose handler id nobody registered. */
  public static ToolResult noHandler(String handlerId) {
    return ToolResult.failure(
        ToolFailureCode.NO_HANDLER,
        "no Java handler is registered with id '" + handlerId + "'",
        "install the plugin or SDK jar that provides it");
  }

  /** The failure of a tool bound to no code at all. */
  public static ToolResult unbound(ToolSpec tool) {
    return ToolResult.failure(
        ToolFailureCode.NO_HANDLER,
        "tool '" + tool.name() + "' is bound to no code",
        "declare handler or source_file in the tools file, or add a script named after the tool");
  }
}
