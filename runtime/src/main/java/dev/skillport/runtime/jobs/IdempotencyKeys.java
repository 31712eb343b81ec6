package dev.skillport.runtime.jobs;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The idempotency keys of a store held by one process, over a map the store provides (in memory, or
 * a map of its file): per caller and key, the job it names, the call's fingerprint and when the key
 * expires. Callers hold the store's lock.
 */
final class IdempotencyKeys {
  /** Every this many bindings the expired keys are removed. */
  static final int SWEEP_EVERY = 256;

  private final Map<String, String> keys;
  private int bound;

  IdempotencyKeys(Map<String, String> keys) {
    this.keys = keys;
  }

  IdempotencyKeys() {
    this(new java.util.HashMap<>());
  }

  /** The job {@code key} names at {@code now}, if it names one that still {@code exists}. */
  Optional<IdempotencyKey.Prior> prior(IdempotencyKey key, Predicate<String> exists, Instant now) {
    String entry = keys.get(id(key));
    if (entry == null) {
      return Optional.empty();
    }
    String[] parts = entry.split("\t", 3);
    if (parts.length < 3
        || Long.parseLong(parts[2]) <= now.toEpochMilli()
        || !exists.test(parts[0])) {
      return Optional.empty();
    }
    return Optional.of(new IdempotencyKey.Prior(parts[0], parts[1]));
  }

  /** Makes {@code key} name {@code jobId} for its window from {@code now}. */
  void bind(IdempotencyKey key, String jobId, Instant now) {
    if (++bound % SWEEP_EVERY == 0) {
      long at = now.toEpochMilli();
      java.util.List<String> expired = new java.util.ArrayList<>();
      keys.forEach(
          (id, e) -> {
            if (Long.parseLong(e.substring(e.lastIndexOf('\t') + 1)) <= at) {
              expired.add(id);
            }
          });
      expired.forEach(keys::remove);
    }
    long expires = now.plus(key.window()).toEpochMilli();
    keys.put(id(key), jobId + "\t" + key.fingerprint() + "\t" + expires);
  }

  private static String id(IdempotencyKey key) {
    return key.scope() + "\u0000" + key.key();
  }
}
