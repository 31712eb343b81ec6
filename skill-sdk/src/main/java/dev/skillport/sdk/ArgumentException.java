package dev.skillport.sdk;

/**
 * A tool's argument is missing or of the wrong type. Thrown by {@link Arguments}; the platform
 * turns it into an {@code isError} result naming the argument, so the model can correct the call.
 */
public final class ArgumentException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String argument;

  public ArgumentException(String argument, String message) {
    super(message);
    this.argument = argument;
  }

  /** The name of the offending argument. */
  public String argument() {
    return argument;
  }
}
