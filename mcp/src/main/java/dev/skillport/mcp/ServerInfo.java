package dev.skillport.mcp;

import java.util.Objects;
import java.util.Optional;

/**
 * What the server tells a client about itself in the {@code initialize} result.
 *
 * @param name implementation name, never blank
 * @param version implementation version, never blank
 * @param instructions guidance for the model on how to use the server; null when there is none
 */
public record ServerInfo(String name, String version, String instructions) {
  public ServerInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    if (name.isBlank() || version.isBlank()) {
      throw new IllegalArgumentException("server name and version must not be blank");
    }
  }

  /** Server info without instructions. */
  public ServerInfo(String name, String version) {
    this(name, version, null);
  }

  /** The instructions, if any. */
  public Optional<String> instructionsText() {
    return Optional.ofNullable(instructions);
  }
}
