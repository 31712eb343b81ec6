package dev.skillport.model.status;

import dev.skillport.api.owner.Principal;
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
 * @param caller the principal that made the call ({@link Principal#name()}), or {@code null} for
 *     the local caller of a server that takes no tokens; a caller sees its own entries only ({@link
 *     Principal#sees(String)})
 * @param instance the instance that served the call, where a fleet's trail is read from its shared
 *     store, or {@code null}
 */
public record AuditEntry(
    Instant time,
    String session,
    String tool,
    Duration duration,
    String outcome,
    List<String> argumentNames,
    String caller,
    String instance) {
  public AuditEntry {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(outcome, "outcome");
    argumentNames = List.copyOf(argumentNames);
  }

  /** An entry of this instance. */
  public AuditEntry(
      Instant time,
      String session,
      String tool,
      Duration duration,
      String outcome,
      List<String> argumentNames,
      String caller) {
    this(time, session, tool, duration, outcome, argumentNames, caller, null);
  }

  /** An entry of the local caller. */
  public AuditEntry(
      Instant time,
      String session,
      String tool,
      Duration duration,
      String outcome,
      List<String> argumentNames) {
    this(time, session, tool, duration, outcome, argumentNames, null);
  }

  /** Whether the call failed: any outcome but {@code ok} and {@code queued}. */
  public boolean isError() {
    return !outcome.equals("ok") && !outcome.equals("queued");
  }
}
