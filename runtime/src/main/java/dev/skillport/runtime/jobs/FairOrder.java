package dev.skillport.runtime.jobs;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The order queued jobs are taken in, fair per caller: the oldest job of the caller that runs the
 * fewest jobs now; between callers that run as many, round-robin: the caller whose last job started
 * longest ago (one never served first), then the oldest job. One caller's thousand queued jobs thus
 * take turns with another caller's one: each job started moves its caller back. The embedded queue
 * applies it in memory; a shared store applies the same order in its claim.
 */
public final class FairOrder {
  private FairOrder() {}

  /** A queued job as the order sees it. */
  public record Candidate(String id, String caller, Instant queuedAt) {
    public Candidate {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(queuedAt, "queuedAt");
      caller = caller == null ? "" : caller;
    }
  }

  /**
   * The job to take next among {@code queued}, given how many jobs each caller runs now ({@code
   * running}, by caller; an absent caller runs none; the anonymous caller is {@code ""}) and when
   * each caller's last job started ({@code served}, any increasing number; absent: never).
   */
  public static Optional<Candidate> next(
      List<Candidate> queued, Map<String, Integer> running, Map<String, Long> served) {
    return queued.stream()
        .min(
            Comparator.comparingInt((Candidate c) -> running.getOrDefault(c.caller(), 0))
                .thenComparingLong(c -> served.getOrDefault(c.caller(), Long.MIN_VALUE))
                .thenComparing(Candidate::queuedAt)
                .thenComparing(Candidate::id));
  }

  /** The caller key of an owner ({@code null}, the anonymous caller, is {@code ""}). */
  public static String caller(String owner) {
    return owner == null ? "" : owner;
  }
}
