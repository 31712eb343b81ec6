/**
 * Deciding across skills: which of several same-named skills wins (shadowing), which skills wait
 * for missing dependencies, which are rejected for a dependency cycle, and in what order to load
 * dependencies.
 */
package dev.skillport.loader.resolve;
