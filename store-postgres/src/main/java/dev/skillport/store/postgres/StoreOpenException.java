package dev.skillport.store.postgres;

/** The store cannot be opened: the operator must fix the database, its URL or its password. */
public final class StoreOpenException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  StoreOpenException(String message, Throwable cause) {
    super(message, cause);
  }
}
