package dev.skillport.runtime.jobs;

import dev.skillport.api.tool.ToolContext;

/**
 * Turns a {@link StoredCall} back into work on this instance: the tool-call path (the guard's
 * checks, the handler or script, the audit trail), run as the job's owner.
 */
public interface StoredCallRunner {
  /** What this instance can run now. */
  Claimant claimant();

  /**
   * Runs {@code call} for {@code owner} in the job's {@code context}; never throws for a failure of
   * the tool (it is the result's).
   */
  JobResult run(StoredCall call, String owner, ToolContext context);
}
