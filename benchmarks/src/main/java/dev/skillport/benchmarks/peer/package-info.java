/**
 * The peers the serving benchmarks compare Skillport with (the official Java SDK server on Jetty,
 * the TypeScript SDK server from {@code benchmarks/peers}), the fixture skill and plugin the
 * launched Skillport serves, and the side-by-side runner.
 */
package dev.skillport.benchmarks.peer;
