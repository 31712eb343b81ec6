/**
 * What a running server counts and measures, exposed at {@code GET /metrics} in the Prometheus text
 * format through the Prometheus Java client.
 */
package dev.skillport.server.metrics;
