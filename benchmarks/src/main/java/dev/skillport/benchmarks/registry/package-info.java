/** JMH benchmarks of the catalog as agents see it: {@code tools/list} and {@code search_skills}. */
package dev.skillport.benchmarks.registry;
