package dev.skillport.workflows;

/** A stored run that {@link WorkflowEngine#resume} does not resume, and why. */
public final class ResumeRefused extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why a resume was refused. */
  public enum Reason {
    /** No stored run has the id. */
    NOT_FOUND,
    /** The run is in flight, was cancelled, completed (without steps to force), or has no spec. */
    NOT_RESUMABLE,
    /** The stored spec's hash is not the one the caller expected, and the caller was strict. */
    SPEC_CHANGED,
    /** A step to force is not a step of the workflow. */
    UNKNOWN_STEP
  }

  private final Reason reason;

  public ResumeRefused(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
