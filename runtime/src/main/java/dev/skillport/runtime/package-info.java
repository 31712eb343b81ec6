/**
 * Running tool calls, without the MCP wire: routing a called name, handlers bound to tools once per
 * catalog generation, argument and output validation, guards and statistics, the script runner,
 * jobs, and the outcome a call comes to. Entry points: {@link dev.skillport.runtime.CallRouter} (a
 * called name resolved on one catalog snapshot and handed to the tool, a platform tool or {@code
 * call_tool}, and audited; {@link dev.skillport.runtime.ToolCalls} calls a skill's tool and its
 * {@link dev.skillport.runtime.ToolRunner} runs it) and {@link dev.skillport.runtime.CallOutcome}
 * (completed, queued, refused or delegated). The core tools, jobs, child process trees and
 * redaction are in the sub-packages.
 */
package dev.skillport.runtime;
