package dev.skillport.server.workflows;

/** The run was cancelled (or the server is stopping): no later step may start. */
final class RunCancelled extends Exception {
  private static final long serialVersionUID = 1L;

  RunCancelled(String reason) {
    super(reason);
  }
}
