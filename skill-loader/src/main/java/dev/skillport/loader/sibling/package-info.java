/**
 * Reading the sibling files a skill's {@code metadata.dcc-mcp} points at (tools, groups, prompts,
 * resources, workflows, external deps, runtimes, MCP bridge), confined to the skill directory, and
 * binding tools to code. {@link dev.skillport.loader.sibling.SiblingFiles} is the entry point;
 * every file is shape-checked against the JSON Schemas in {@code dev/skillport/loader/schemas/},
 * and an invalid entry is dropped alone with a warning.
 */
package dev.skillport.loader.sibling;
