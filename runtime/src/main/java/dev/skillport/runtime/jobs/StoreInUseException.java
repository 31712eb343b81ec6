package dev.skillport.runtime.jobs;

import java.io.IOException;
import java.nio.file.Path;

/** A store's file is held by another process (another server on the same machine). */
public final class StoreInUseException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The store folder that is in use. */
  private final transient Path dir;

  public StoreInUseException(Path dir, Throwable cause) {
    super("the store in " + dir + " is in use by another process", cause);
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }
}
