package dev.skillport.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.CallMeta;
import dev.skillport.runtime.CallOutcome;
import dev.skillport.runtime.CapabilityRequiredException;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.UnknownToolException;
import dev.skillport.runtime.jobs.JobScheduler;
import java.util.List;

/**
 * Platform tools that a session lists after the core tools only while it meets a condition (for
 * example: a loaded skill declares workflows). While not listed they resolve like any unknown name.
 * Calls go through the same guard and audit as every other tool.
 */
public interface SessionTools {
  /** The tools, in listing order. */
  List<CoreTool> definitions();

  /** Whether a session with this view lists (and may call) the tools. */
  boolean listedIn(Catalog catalog, SessionView view);

  /**
   * Runs one of the tools.
   *
   * @param ctx the calling request's context
   * @param meta the calling session and where its notifications go
   * @param calls calls other tools the way the service that dispatched this call does
   */
  ToolResult call(
      String name,
      SessionState session,
      JsonNode args,
      ToolContext ctx,
      CallMeta meta,
      ToolCalling calls);

  /**
   * A call of any tool, as {@link SkillportService#call} makes it: what session tools use to call
   * other tools. It is handed to each call rather than kept, so session tools can be made before
   * the service that dispatches to them.
   */
  @FunctionalInterface
  interface ToolCalling {
    CallOutcome call(
        SessionState session, String name, JsonNode arguments, ToolContext ctx, CallMeta meta)
        throws UnknownToolException, CapabilityRequiredException;
  }

  /** Makes a service's session tools from what they share with it. */
  @FunctionalInterface
  interface Factory {
    /**
     * @param catalog the catalog the service serves
     * @param jobs the scheduler the service queues async calls on
     */
    SessionTools create(CatalogHolder catalog, JobScheduler jobs);
  }
}
