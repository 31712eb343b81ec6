package dev.skillport.api.tool;

import dev.skillport.api.stability.API;

/** Java code that answers calls of a tool bound with {@code handler: <id>}. */
@FunctionalInterface
@API(status = API.Status.STABLE)
public interface ToolHandler {
  /**
   * Answers one call. A thrown exception becomes an {@code isError} result with its message; a
   * failure the tool anticipates should return {@link ToolResult#error(String)} instead.
   */
  ToolResult call(ToolInvocation invocation) throws Exception;
}
