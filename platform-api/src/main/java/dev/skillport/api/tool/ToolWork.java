package dev.skillport.api.tool;

import dev.skillport.api.stability.API;

/** The rest of a tool call, handed to a job with {@link ToolContext#continueAsJob(ToolWork)}. */
@FunctionalInterface
@API(status = API.Status.EXPERIMENTAL)
public interface ToolWork {
  /**
   * Runs the work and returns the call's result.
   *
   * @param context the job's context: progress, logging, cancellation and questions to the client
   */
  ToolResult run(ToolContext context) throws Exception;
}
