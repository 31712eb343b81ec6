/**
 * A read-only view of a running server (status, diagnostics, recent calls, per-tool metrics) that
 * the server hands to tools reporting on it, such as the bundled {@code skillport-diagnostics}.
 */
package dev.skillport.model.status;
