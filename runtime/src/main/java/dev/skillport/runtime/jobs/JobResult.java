package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What a job's work produced: the result the job keeps and hands back when asked, which the
 * scheduler does not read, and why the call failed, or null when it did not.
 *
 * @param result the result, opaque to the scheduler
 * @param failure a one-line reason the job failed, or null when it completed
 */
public record JobResult(JsonNode result, String failure) {
  public JobResult {
    Objects.requireNonNull(result, "result");
  }

  /** A job that completed with {@code result}. */
  public static JobResult completed(JsonNode result) {
    return new JobResult(result, null);
  }

  /** A job that failed for {@code why}, keeping {@code result} to hand back. */
  public static JobResult failed(String why, JsonNode result) {
    return new JobResult(result, Objects.requireNonNull(why, "why"));
  }
}
