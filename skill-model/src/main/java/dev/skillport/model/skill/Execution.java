package dev.skillport.model.skill;

/** Whether a tool call runs inline or becomes a job. */
public enum Execution {
  /** The call runs inline and answers with its result. */
  SYNC,
  /**
   * The call becomes a job and answers at once with its handle: a task for a 2026-07-28 client that
   * declared the Tasks extension, a job id ({@code jobs_get_status}) for every other client.
   */
  ASYNC,
  /**
   * Like {@link #ASYNC}, but a 2026-07-28 client must declare the Tasks extension: one that did not
   * is refused (missing required client capability) rather than given a job id.
   */
  TASK
}
