package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/** How one request to Blender ended. */
sealed interface HostOutcome {

  /**
   * The outcome as a tool call's result.
   *
   * @param skillDirectory the skill folder, against which content items' relative paths resolve
   */
  ToolResult toResult(Path skillDirectory);

  /**
   * The value the host loop returned.
   *
   * @throws IOException saying why there is none
   */
  JsonNode result() throws IOException;

  /** The host loop answered (the script's result, or its own failure report). */
  record Answered(JsonNode answer) implements HostOutcome {
    public Answered {
      Objects.requireNonNull(answer, "answer");
    }

    @Override
    public ToolResult toResult(Path skillDirectory) {
      return HostResults.answered(answer, skillDirectory);
    }

    @Override
    public JsonNode result() throws IOException {
      if (!answer.path("ok").asBoolean()) {
        throw new IOException(answer.path("error").asText("Blender could not answer"));
      }
      return answer.path("result");
    }
  }

  /**
   * Blender did not answer: the call timed out, was cancelled, Blender crashed or is not running.
   *
   * @param code a stable code, for example {@code HOST_CALL_TIMEOUT}
   * @param message what happened, for people
   * @param hint what to do about it, or {@code null}
   */
  record Failed(ToolFailureCode code, String message, String hint) implements HostOutcome {
    public Failed {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public ToolResult toResult(Path skillDirectory) {
      return HostResults.failure(code, message, hint, null);
    }

    @Override
    public JsonNode result() throws IOException {
      throw new IOException(code + ": " + message);
    }
  }
}
