/**
 * The platform's own tools (mcp-surface.md section 4): {@link dev.skillport.runtime.core.CoreTools}
 * for sessions and {@link dev.skillport.runtime.core.StatelessTools} for the stateless era's forms
 * of the tools that change a session. They answer {@link dev.skillport.api.tool.ToolResult}s; the
 * tools they show come from the MCP surface through {@link
 * dev.skillport.runtime.core.ListedEntries}, and bridge servers and skill files are reached through
 * {@link dev.skillport.runtime.core.SkillServers} and {@link
 * dev.skillport.runtime.core.SkillFileReader}.
 */
package dev.skillport.runtime.core;
