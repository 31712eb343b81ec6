/**
 * Reading the sibling files a skill's {@code metadata.dcc-mcp} points at (tools, groups, prompts,
 * resources, workflows, external deps, runtimes, MCP bridge), confined to the skill directory, and
 * binding tools to code.
 */
package dev.skillport.loader.sibling;
