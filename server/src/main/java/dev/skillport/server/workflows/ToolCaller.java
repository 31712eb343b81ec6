package dev.skillport.server.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;

/** Calls a tool the way {@code tools/call} does and returns the {@code CallToolResult}. */
@FunctionalInterface
interface ToolCaller {
  JsonNode call(String tool, JsonNode args, ToolContext ctx);
}
