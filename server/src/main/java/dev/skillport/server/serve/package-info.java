/**
 * Composes a running server: the skill loader and hot reload, the application service, the MCP
 * protocol layer and its transports.
 */
package dev.skillport.server.serve;
