/**
 * The application behind the MCP wire: the catalog and per-session views, the core tools, and
 * dispatching tool calls to their bound handlers (Java handlers and scripts).
 */
package dev.skillport.server.app;
