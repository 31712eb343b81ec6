package dev.skillport.api.tool;

/** The rest of a tool call, handed to a job with {@link ToolContext#continueAsJob(ToolWork)}. */
@FunctionalInterface
public interface ToolWork {
  /**
   * Runs the work and returns the call's result.
   *
   * @param context the job's context: progress, logging, cancellation and questions to the client
   */
  ToolResult run(ToolContext context) throws Exception;
}
