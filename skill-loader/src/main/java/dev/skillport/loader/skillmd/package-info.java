/**
 * Reading {@code SKILL.md}: the frontmatter fence, safe YAML, the Agent Skills fields and the typed
 * {@code metadata.dcc-mcp} extensions, reported as diagnostics rather than thrown.
 */
package dev.skillport.loader.skillmd;
