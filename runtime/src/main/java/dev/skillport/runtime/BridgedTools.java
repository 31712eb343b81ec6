package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.ToolSpec;

/** Calls the tools of bridge skills: each forwarded to the MCP server the skill bridges. */
@FunctionalInterface
public interface BridgedTools {
  /** The result of {@code tool} of bridge skill {@code skill}, a failure when it cannot run. */
  ToolResult call(Skill skill, ToolSpec tool, JsonNode args, ToolContext ctx);
}
