/**
 * The catalog of skills as agents see it: immutable snapshots swapped on reload, per-session views
 * of loaded skills and active groups, tool naming and {@code tools/list} assembly. Entry points:
 * {@link dev.skillport.registry.CatalogHolder} and {@link dev.skillport.registry.ToolListing}.
 */
package dev.skillport.registry;
