package dev.skillport.runtime.core;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.registry.Catalog;
import dev.skillport.runtime.DynamicTools;
import dev.skillport.runtime.SessionState;

/** {@code list_dynamic_tools}: lists the caller's dynamic tools ({@link DynamicTools}). */
final class ListDynamicTools implements CoreToolCall {
  private final DynamicTools tools;

  ListDynamicTools(DynamicTools tools) {
    this.tools = tools;
  }

  @Override
  public ToolResult call(Catalog catalog, SessionState session, JsonNode args, ToolContext ctx) {
    return tools.list(session, ctx);
  }
}
