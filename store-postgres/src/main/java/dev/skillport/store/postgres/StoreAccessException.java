package dev.skillport.store.postgres;

/** A statement against the store failed: the database went away or refused it. */
public final class StoreAccessException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  StoreAccessException(String message, Throwable cause) {
    super(message, cause);
  }
}
