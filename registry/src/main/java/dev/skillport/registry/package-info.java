/**
 * The catalog of skills as agents see it: immutable snapshots swapped on reload, per-session views
 * of loaded skills and active groups, tool naming and {@code tools/list} assembly.
 */
package dev.skillport.registry;
