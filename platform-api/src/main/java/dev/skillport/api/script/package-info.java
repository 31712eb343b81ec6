/**
 * The script protocol shared by every runner (the server's subprocess runner, a host adapter's
 * in-host interpreter): the {@code dcc_mcp_core} Python package that skill scripts written for
 * dcc-mcp-core import, and the rules that turn a script's result envelope into a tool result.
 */
package dev.skillport.api.script;
