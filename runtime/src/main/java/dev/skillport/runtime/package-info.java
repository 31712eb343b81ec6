/**
 * Running tool calls, without the MCP wire: handlers bound to tools once per catalog generation,
 * argument validation, guards and statistics, the script runner, and the outcome a call comes to.
 * Entry points: {@link dev.skillport.runtime.ToolBindings} (what runs each tool of a catalog) and
 * {@link dev.skillport.runtime.CallOutcome} (completed, queued, refused or delegated). Jobs, child
 * process trees and redaction are in the sub-packages.
 */
package dev.skillport.runtime;
