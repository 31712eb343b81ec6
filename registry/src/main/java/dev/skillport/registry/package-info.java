/**
 * The catalog of skills as agents see it: immutable snapshots swapped on reload, per-session views
 * of loaded skills and active groups, tool naming and resolution. It renders no MCP wire JSON; the
 * server does. Entry points: {@link dev.skillport.registry.CatalogHolder} and {@link
 * dev.skillport.registry.SessionView}.
 */
package dev.skillport.registry;
