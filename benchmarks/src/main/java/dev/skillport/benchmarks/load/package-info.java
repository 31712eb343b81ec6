/**
 * End-to-end load: an HTTP harness that drives any MCP URL with concurrent sessions, and a probe
 * for the cold start of {@code skillport serve --stdio}.
 */
package dev.skillport.benchmarks.load;
