/**
 * MCP prompts and completions: the prompts of a session's loaded skills (declared, or derived from
 * examples, recipes and workflows), their rendering, and {@code completion/complete}.
 */
package dev.skillport.server.prompts;
