package dev.skillport.api.tool;

/** Java code that answers calls of a tool bound with {@code handler: <id>}. */
@FunctionalInterface
public interface ToolHandler {
  /**
   * Answers one call. A thrown exception becomes an {@code isError} result with its message; a
   * failure the tool anticipates should return {@link ToolResult#error(String)} instead.
   */
  ToolResult call(ToolInvocation invocation) throws Exception;
}
