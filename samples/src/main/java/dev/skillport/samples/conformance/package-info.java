/**
 * The Java handlers of the {@code mcp-conformance} sample skill: the fixed tool surface the
 * official MCP conformance suite calls, written with the skill SDK.
 */
package dev.skillport.samples.conformance;
