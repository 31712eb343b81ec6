package dev.skillport.workflows;

/**
 * A step that did not succeed. Retryable failures (a tool error, a timeout) are tried again under
 * the step's retry policy; others (a template error, a declined approval) fail at once.
 */
public final class StepFailure extends Exception {
  private static final long serialVersionUID = 1L;

  private final boolean retryable;

  StepFailure(String message, boolean retryable) {
    super(message);
    this.retryable = retryable;
  }

  boolean retryable() {
    return retryable;
  }
}
