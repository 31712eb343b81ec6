/**
 * The MCP Skills extension ({@code io.modelcontextprotocol/skills}): {@code skills/list}, {@code
 * skills/get} with verbatim frontmatter and a digest manifest of every file, and {@code
 * resources/directory/read} over skill folders.
 */
package dev.skillport.server.skills;
