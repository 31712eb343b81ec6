package dev.skillport.runtime.jobs;

import java.time.Instant;
import java.util.Objects;

/**
 * Why a store cannot write, since when: what {@code /readyz} names while it lasts.
 *
 * @param store the store's name ({@code jobs})
 * @param error what the last failed write said, without file paths
 * @param since when writes began to fail
 */
public record StoreFault(String store, String error, Instant since) {
  public StoreFault {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(since, "since");
    if (store.isBlank() || error.isBlank()) {
      throw new IllegalArgumentException("a store fault names its store and its error");
    }
  }
}
