package dev.skillport.api.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * Why a tool call failed, as a value: the stable code, the message, what the caller can do about
 * it, and optional details. A failed {@link ToolResult} carries it so that jobs, workflows, rounds
 * and the audit read the failure itself rather than its JSON rendering.
 *
 * @param code the stable failure code: a {@link ToolFailureCode} name, or the code a script's
 *     result envelope gave
 * @param message what went wrong
 * @param hint what the caller can do about it, or {@code null}
 * @param details an object with more about it, or {@code null}
 */
@API(status = API.Status.EXPERIMENTAL)
public record ToolFailure(String code, String message, String hint, JsonNode details) {
  public ToolFailure {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    details = details == null ? null : details.deepCopy();
  }

  /** A failure with one of the platform's codes. */
  public ToolFailure(ToolFailureCode code, String message, String hint, JsonNode details) {
    this(code.name(), message, hint, details);
  }

  /** The one-line reason a failed job reports: {@code CODE: message}. */
  public String reason() {
    return code + ": " + message;
  }
}
