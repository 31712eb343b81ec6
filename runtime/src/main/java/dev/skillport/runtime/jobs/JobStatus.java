package dev.skillport.runtime.jobs;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a job is in its life: {@code pending → running → completed | failed | cancelled}, or {@code
 * interrupted} when the server stopped before it finished.
 */
public enum JobStatus {
  PENDING,
  RUNNING,
  COMPLETED,
  FAILED,
  CANCELLED,
  INTERRUPTED;

  /** The lower-case name used on the wire and in the store. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the job can no longer change. */
  public boolean terminal() {
    return this != PENDING && this != RUNNING;
  }

  public static Optional<JobStatus> fromWire(String text) {
    return Arrays.stream(values()).filter(s -> s.wire().equals(text)).findFirst();
  }
}
