package dev.skillport.api.status;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One finished tool call as the audit trail records it. Argument values are never kept, so secrets
 * passed as arguments cannot leak through it.
 *
 * @param time when the call finished
 * @param session the calling session: its id in the server, a stable label standing for it where
 *     the id must not be shown (see {@link ServerIntrospection#recentCalls()}), or {@code null}
 * @param tool the tool name as called ({@code "<name> (job)"} for a job's run)
 * @param duration how long the call took
 * @param outcome {@code ok}, {@code queued}, or an error code such as {@code INVALID_ARGUMENTS}
 * @param argumentNames the names of the arguments passed
 */
public record AuditEntry(
    Instant time,
    String session,
    String tool,
    Duration duration,
    String outcome,
    List<String> argumentNames) {
  public AuditEntry {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(outcome, "outcome");
    argumentNames = List.copyOf(argumentNames);
  }

  /** Whether the call failed: any outcome but {@code ok} and {@code queued}. */
  public boolean isError() {
    return !outcome.equals("ok") && !outcome.equals("queued");
  }
}
