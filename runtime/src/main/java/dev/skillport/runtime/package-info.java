/**
 * Running tool calls, without the MCP wire: handlers bound to tools once per catalog generation,
 * argument and output validation, guards and statistics, the script runner, jobs, and the outcome a
 * call comes to. Entry points: {@link dev.skillport.runtime.ToolCalls} (a resolved tool called:
 * refused, queued or run, and audited; its {@link dev.skillport.runtime.ToolRunner} runs the tool)
 * and {@link dev.skillport.runtime.CallOutcome} (completed, queued, refused or delegated). Jobs,
 * child process trees and redaction are in the sub-packages.
 */
package dev.skillport.runtime;
