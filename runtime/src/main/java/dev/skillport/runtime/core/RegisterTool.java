package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.DynamicTools;
import dev.skillport.runtime.SessionState;

/**
 * {@code register_tool}: registers a dynamic tool for the caller (and its session) ({@link
 * DynamicTools}).
 */
final class RegisterTool implements CoreToolCall {
  private final DynamicTools tools;

  RegisterTool(DynamicTools tools) {
    this.tools = tools;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return tools.register(catalog, session, args, ctx);
  }
}
