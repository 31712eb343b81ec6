package dev.skillport.server.resources;

import dev.skillport.mcp.McpException;
import dev.skillport.mcp.RequestContext;
import dev.skillport.registry.SessionView;

/**
 * Finds the catalog view of the session a request belongs to: what it lists and what it may reach.
 * A session reaches what it lists (its loaded skills); a stateless request reaches every skill the
 * server runs and lists their prompts and resources too (the listing policy is about tools only).
 */
public interface SessionViews {
  /**
   * The view whose skills' prompts and resources are listed.
   *
   * @throws McpException when the session has no view (not initialized)
   */
  SessionView of(RequestContext ctx) throws McpException;

  /**
   * The view whose skills' prompts and resources may be read by name or URI.
   *
   * @throws McpException when the session has no view (not initialized)
   */
  SessionView reachable(RequestContext ctx) throws McpException;

  /** The stateless era's reachable view (for work done outside any request). */
  SessionView stateless();
}
