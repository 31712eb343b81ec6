package dev.skillport.bridge;

import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import java.util.Objects;

/** What a call to a bridged tool came to: the server's result, or a refusal with a stable code. */
public sealed interface BridgeOutcome {
  /** The tool result this outcome answers a call with. */
  ToolResult toResult();

  /** The bridged server answered; its result may itself be an error the tool reported. */
  record Completed(ToolResult result) implements BridgeOutcome {
    public Completed {
      Objects.requireNonNull(result, "result");
    }

    @Override
    public ToolResult toResult() {
      return result;
    }
  }

  /**
   * The call did not reach the tool or did not finish: untrusted, not started, timed out,
   * cancelled, or the server ended during it.
   */
  record Refused(ToolFailureCode code, String message, String hint) implements BridgeOutcome {
    public Refused {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public ToolResult toResult() {
      return ToolResult.failure(code, message, hint);
    }
  }
}
