package dev.skillport.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CoreTool;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.CallMeta;
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
   */
  ToolResult call(String name, SessionState session, JsonNode args, ToolContext ctx, CallMeta meta);
}
