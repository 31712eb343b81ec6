/**
 * Ranked search over skills and tools for {@code search_skills} and {@code search_tools}: BM25 over
 * weighted fields, layer weights, prefix and typo tolerance, and filters.
 */
package dev.skillport.registry.search;
