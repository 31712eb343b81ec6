/**
 * Benchmarks of the skill loader: a seeded generator of realistic skill trees, JMH throughput
 * benchmarks of discovery, parsing and validation, and a probe of the heap a load result retains.
 */
package dev.skillport.benchmarks.loader;
