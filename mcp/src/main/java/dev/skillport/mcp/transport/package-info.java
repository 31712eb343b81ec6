/**
 * Transports that carry MCP messages between clients and the protocol core: stdio (one JSON-RPC
 * message per line) and Streamable HTTP on Jetty 12 core.
 */
package dev.skillport.mcp.transport;
