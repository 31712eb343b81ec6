package dev.skillport.adapters.blender;

/**
 * Blender cannot be used: not found, not Blender, too old, or it did not start. The message says
 * what the operator can do about it.
 */
public final class BlenderUnavailableException extends Exception {
  private static final long serialVersionUID = 1L;

  BlenderUnavailableException(String message) {
    super(message);
  }

  BlenderUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
