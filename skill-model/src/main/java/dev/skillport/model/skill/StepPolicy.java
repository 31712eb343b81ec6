package dev.skillport.model.skill;

/**
 * Per-step controls shared by every workflow step kind.
 *
 * @param timeoutSecs the step's timeout, or {@code null} for the engine default
 * @param idempotencyKey a template whose rendered value lets a re-run skip a finished step, or null
 */
public record StepPolicy(Integer timeoutSecs, RetryPolicy retry, String idempotencyKey) {
  public static final StepPolicy DEFAULT = new StepPolicy(null, RetryPolicy.NONE, null);

  public StepPolicy {
    retry = retry == null ? RetryPolicy.NONE : retry;
    if (timeoutSecs != null && timeoutSecs <= 0) {
      throw new IllegalArgumentException("timeoutSecs must be positive");
    }
  }
}
