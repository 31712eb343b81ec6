package dev.skillport.api.tool;

import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * A request a tool sent to the client (sampling, elicitation) did not produce a result: the client
 * did not declare the capability, answered with an error, or did not answer in time.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class ClientRequestException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why the request failed. */
  public enum Reason {
    /** The client did not declare the capability the request needs. */
    UNSUPPORTED,
    /** The client answered with an error, or the session ended. */
    FAILED,
    /** The client did not answer in time. */
    TIMED_OUT,
    /**
     * The client is being asked and will answer by calling again (the stateless protocol's multi
     * round-trip requests): the call ends here, and runs again from the start with the answer. A
     * handler should let this propagate; whatever it returns instead is discarded.
     */
    INPUT_REQUIRED
  }

  private final Reason reason;

  public ClientRequestException(Reason reason, String message) {
    this(reason, message, null);
  }

  public ClientRequestException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }
}
