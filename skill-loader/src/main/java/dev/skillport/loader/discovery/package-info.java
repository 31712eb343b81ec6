/**
 * Finding skill folders under skill roots: depth-bounded, deterministic, safe against directory
 * link loops, with every skill folder counted once.
 */
package dev.skillport.loader.discovery;
