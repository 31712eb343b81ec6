/**
 * The script side of the script protocol: the {@code dcc_mcp_core} Python package that skill
 * scripts written for dcc-mcp-core import, shipped with the platform so that every runner (the
 * server's subprocess runner, a host adapter's in-host interpreter) can put it on the import path.
 */
package dev.skillport.api.script;
