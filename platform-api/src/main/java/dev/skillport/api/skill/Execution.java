package dev.skillport.api.skill;

/** Whether a tool call runs inline or becomes a job. */
public enum Execution {
  SYNC,
  ASYNC
}
