/**
 * Overhead of the server's script runner over a bare process per call, and how many asynchronous
 * calls per second the job queue finishes.
 */
package dev.skillport.benchmarks.exec;
