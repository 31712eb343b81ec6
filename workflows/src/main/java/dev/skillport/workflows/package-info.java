/**
 * The workflow engine: runs the workflows that loaded skills declare (tool, foreach, parallel,
 * branch and approve steps with timeouts, retries and idempotency keys) in the background, and
 * keeps their runs in a {@link dev.skillport.workflows.WorkflowStore}. Entry points: {@link
 * dev.skillport.workflows.WorkflowEngine} and the {@link dev.skillport.workflows.ToolCaller} its
 * tool steps call through; the {@code workflows_*} tools are the server's.
 */
package dev.skillport.workflows;
