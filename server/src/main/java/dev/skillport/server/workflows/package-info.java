/**
 * The workflow engine: runs the workflows that loaded skills declare (tool, foreach, parallel,
 * branch and approve steps with timeouts, retries and idempotency keys) in the background, and the
 * {@code workflows_*} tools that start, watch, approve and cancel those runs.
 */
package dev.skillport.server.workflows;
