package dev.skillport.server.resources;

import dev.skillport.mcp.McpException;
import dev.skillport.mcp.RequestContext;
import dev.skillport.registry.SessionView;

/** Finds the catalog view of the session a request belongs to. */
@FunctionalInterface
public interface SessionViews {
  /**
   * The requesting session's view.
   *
   * @throws McpException when the session has no view (not initialized)
   */
  SessionView of(RequestContext ctx) throws McpException;
}
