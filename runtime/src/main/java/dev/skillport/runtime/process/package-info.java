/**
 * The processes a run starts (a script, a bridged MCP server): finding every one of them, daemons
 * that detached included, and ending them together.
 */
package dev.skillport.runtime.process;
