package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.DynamicTools;
import dev.skillport.runtime.SessionState;

/** {@code deregister_tool}: removes one of the caller's dynamic tools ({@link DynamicTools}). */
final class DeregisterTool implements CoreToolCall {
  private final DynamicTools tools;

  DeregisterTool(DynamicTools tools) {
    this.tools = tools;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return tools.deregister(session, args, ctx);
  }
}
