package dev.skillport.runtime.planted;

import dev.skillport.mcp.McpException;

/** A runtime class that answers with a protocol error instead of a typed outcome. */
public final class RuntimeUsingTheProtocol {
  private RuntimeUsingTheProtocol() {}

  public static String describe(McpException e) {
    return e.getMessage();
  }
}
