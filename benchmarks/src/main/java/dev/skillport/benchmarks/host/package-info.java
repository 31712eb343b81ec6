/**
 * Tool call latency through a host adapter's in-host executor against the same script run as a
 * subprocess.
 */
package dev.skillport.benchmarks.host;
