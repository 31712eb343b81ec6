/**
 * The MCP protocol core: JSON-RPC 2.0 messages, the session lifecycle and version negotiation, and
 * the method-handler registry that the application plugs its tools, prompts and resources into.
 * Entry points: {@link dev.skillport.mcp.McpServer} and the transports in {@code
 * dev.skillport.mcp.transport}.
 */
package dev.skillport.mcp;
