package dev.skillport.bridge;

/**
 * A bridged prompt or resource could not be served; the message says why, already redacted. {@link
 * #callersFault()} tells an unknown name or bad arguments (the caller's to fix) from a server that
 * cannot answer.
 */
public final class BridgeContentException extends Exception {
  private static final long serialVersionUID = 1L;

  private final boolean callersFault;

  BridgeContentException(boolean callersFault, String message) {
    super(message);
    this.callersFault = callersFault;
  }

  public boolean callersFault() {
    return callersFault;
  }
}
