package dev.skillport.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;

/**
 * Calls a tool for a step the way {@code tools/call} does and answers what it produced: the result
 * of a call that ran, the refusal of one that did not, or, for a call that became a job, the job's
 * result once it finished. Never {@code null}.
 */
@FunctionalInterface
public interface ToolCaller {
  ToolResult call(String tool, JsonNode args, ToolContext ctx);
}
