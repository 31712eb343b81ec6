package dev.skillport.workflows;

/** The run was cancelled (or the server is stopping): no later step may start. */
public final class RunCancelled extends Exception {
  private static final long serialVersionUID = 1L;

  RunCancelled(String reason) {
    super(reason);
  }
}
