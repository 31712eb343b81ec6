package dev.skillport.registry;

/** A pagination cursor that this server did not issue; the client must start over. */
public final class InvalidCursorException extends Exception {
  private static final long serialVersionUID = 1L;

  public InvalidCursorException(String cursor) {
    super("invalid cursor: " + (cursor.length() > 40 ? cursor.substring(0, 40) + "…" : cursor));
  }
}
