/**
 * MCP bridge skills: a local stdio MCP server mounted as a skill. The operator's trust (flags and a
 * trust file) bound to what runs (folder, program, argument files, environment names, every file's
 * digest; checked again before each start), the child's lifecycle (lazy start, handshake, restart
 * with backoff, idle stop, its whole process tree ended), and its tools, prompts and resources
 * turned into the skill's own, normalised and bounded, with list changes published at a safe point.
 *
 * <p>Entry points: {@link dev.skillport.bridge.BridgeRuntime} (the bridges of a catalog, which the
 * server composes), {@link dev.skillport.bridge.BridgeTrust} and {@link
 * dev.skillport.bridge.TrustFile} (what the operator trusts, also written by {@code skillport
 * trust-bridge}); the rest is the module's own.
 */
package dev.skillport.bridge;
