package dev.skillport.mcp.planted;

import dev.skillport.runtime.secrets.Redactor;

/** A protocol-layer class that uses the server built on top of it. */
public final class McpUsingTheServer {
  private McpUsingTheServer() {}

  public static boolean secret(Redactor redactor, String name) {
    return redactor.isSecretName(name);
  }
}
