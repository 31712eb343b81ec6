/**
 * The {@code workflows_*} tools: the MCP surface of the workflow engine, listed in a session while
 * one of its loaded skills declares workflows; runs report to the session that started them. Entry
 * point: {@link dev.skillport.server.workflows.WorkflowTools}.
 */
package dev.skillport.server.workflows;
