package dev.skillport.runtime.jobs;

import java.time.Duration;
import java.util.Objects;

/**
 * A caller's idempotency key for a call that creates a job: the same caller sending the same key
 * within {@code window} gets the job the first call created, not a second one. Keys are scoped per
 * caller: another caller's same key names another job.
 *
 * @param caller the authenticated caller ({@link JobRecord#owner()}), or {@code null} for the one
 *     unauthenticated caller
 * @param key the client's key (1 to {@value #MAX_LENGTH} visible ASCII characters)
 * @param fingerprint what the call was ({@code CallDigest} of its tool and arguments): a key sent
 *     again with another call is refused
 * @param window how long the key names its job
 */
public record IdempotencyKey(String caller, String key, String fingerprint, Duration window) {
  /** The longest key accepted. */
  public static final int MAX_LENGTH = 255;

  /** How long a key names its job unless the operator says otherwise. */
  public static final Duration DEFAULT_WINDOW = Duration.ofHours(24);

  public IdempotencyKey {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(window, "window");
    if (!valid(key)) {
      throw new IllegalArgumentException("not an idempotency key: " + key);
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive");
    }
  }

  /** The caller as the stores key it: the unauthenticated caller is {@code ""}. */
  public String scope() {
    return caller == null ? "" : caller;
  }

  /** Whether {@code key} is acceptable: 1 to 255 visible ASCII characters. */
  public static boolean valid(String key) {
    return key != null
        && !key.isEmpty()
        && key.length() <= MAX_LENGTH
        && key.chars().allMatch(c -> c > 0x20 && c < 0x7f);
  }

  /**
   * The job a key already named when a call sent it again.
   *
   * @param jobId the job the first call created
   * @param fingerprint the first call's {@link IdempotencyKey#fingerprint}
   */
  public record Prior(String jobId, String fingerprint) {
    public Prior {
      Objects.requireNonNull(jobId, "jobId");
      Objects.requireNonNull(fingerprint, "fingerprint");
    }
  }

  /** A key sent again with another call than the one that first used it. */
  public static final class ReusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String jobId;

    public ReusedException(IdempotencyKey key, Prior prior) {
      super(
          "idempotency key "
              + key.key()
              + " was first sent with other arguments or another tool (job "
              + prior.jobId()
              + ")");
      this.jobId = prior.jobId();
    }

    /** The job the key names. */
    public String jobId() {
      return jobId;
    }
  }
}
