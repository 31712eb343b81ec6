package dev.skillport.bridge;

/**
 * What a bridge runs cannot be read in full (its folder is over the limits, a file cannot be read,
 * its command names no program), so it cannot be trusted and is not started.
 */
public final class BridgeUnverifiableException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String hint;

  BridgeUnverifiableException(String message, String hint) {
    super(message);
    this.hint = hint;
  }

  /** What the skill's author or the operator can do about it. */
  public String hint() {
    return hint;
  }
}
