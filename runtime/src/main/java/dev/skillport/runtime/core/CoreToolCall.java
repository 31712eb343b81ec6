package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.SessionState;

/** One core tool's code; {@link CoreTools} holds one of each and dispatches by name. */
@FunctionalInterface
interface CoreToolCall {
  /**
   * Runs the tool for {@code session} on {@code catalog}, the snapshot the call resolved on.
   *
   * @param ctx the call's context, never null
   */
  ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx);
}
