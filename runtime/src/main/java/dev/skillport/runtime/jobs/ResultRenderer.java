package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Renders a job's result as the MCP surface answers it ({@code jobs_get_status} shows it under
 * {@code result}); the runtime keeps the typed value and leaves the wire shape to the surface.
 */
@FunctionalInterface
public interface ResultRenderer {
  /** {@code result} as a client is sent it. */
  ObjectNode render(JobResult result);
}
