package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.McpServer;

/**
 * One part of the MCP surface (tools, prompts, resources, completions, jobs, …): it declares its
 * server capabilities and registers its method handlers. {@link SkillportServer} composes the
 * features; each one lives in its own class so the surface grows without one class knowing all of
 * it.
 */
public interface McpFeature {
  /** Adds this feature's entries to the {@code capabilities} object of {@code initialize}. */
  void capabilities(ObjectNode capabilities);

  /**
   * Adds what only the stateless era declares to the {@code capabilities} of {@code
   * server/discover} (which already holds {@link #capabilities}'s entries): extensions defined for
   * that era only, for example.
   */
  default void modernCapabilities(ObjectNode capabilities) {}

  /** Registers this feature's handlers (and session listeners, when it keeps per-session state). */
  void register(McpServer.Builder builder);
}
