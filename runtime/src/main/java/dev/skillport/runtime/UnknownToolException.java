package dev.skillport.runtime;

import dev.skillport.api.tool.ToolFailureCode;

/** A {@code tools/call} named no tool of the session: a protocol error, not a tool failure. */
public final class UnknownToolException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String toolName;
  private final String hint;

  public UnknownToolException(String toolName, String hint) {
    super("unknown tool: " + toolName);
    this.toolName = toolName;
    this.hint = hint;
  }

  public String toolName() {
    return toolName;
  }

  /** The stable error code served in the error's data. */
  public ToolFailureCode code() {
    return ToolFailureCode.ACTION_NOT_FOUND;
  }

  public String hint() {
    return hint;
  }
}
