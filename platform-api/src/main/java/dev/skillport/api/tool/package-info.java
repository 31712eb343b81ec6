/**
 * The contract between the platform and code that answers tool calls: {@link
 * dev.skillport.api.tool.ToolHandler}, its invocation and context, and results.
 */
package dev.skillport.api.tool;
