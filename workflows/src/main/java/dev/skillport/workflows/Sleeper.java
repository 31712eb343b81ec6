package dev.skillport.workflows;

import java.time.Duration;

/** Waits between retries; tests replace it to check the schedule without waiting. */
@FunctionalInterface
public interface Sleeper {
  Sleeper REAL = d -> Thread.sleep(d.toMillis());

  /** Waits {@code delay}; an interrupt (a cancel) ends the wait early. */
  void sleep(Duration delay) throws InterruptedException;
}
