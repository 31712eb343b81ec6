/**
 * The Java side of the {@code mcp-conformance} sample skill: the fixed tool surface and templated
 * resource the official MCP conformance suite calls, written with the skill SDK, and the PF4J
 * plugin that lets a server started with {@code bin/skillport} serve them.
 */
package dev.skillport.samples.conformance;
