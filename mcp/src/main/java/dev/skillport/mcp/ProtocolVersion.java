package dev.skillport.mcp;

import java.util.Optional;

/** The MCP protocol revisions this server speaks, newest first. */
public enum ProtocolVersion {
  /** The current revision; answered to any client that asks for a revision we do not know. */
  V2025_11_25("2025-11-25"),
  /** Removed JSON-RPC batching; added structured tool output and elicitation. */
  V2025_06_18("2025-06-18"),
  /** Introduced Streamable HTTP; the only revision that allows JSON-RPC batches. */
  V2025_03_26("2025-03-26");

  /** The revision answered when a client asks for one we do not speak. */
  public static final ProtocolVersion LATEST = V2025_11_25;

  private final String wire;

  ProtocolVersion(String wire) {
    this.wire = wire;
  }

  /** The revision's date string as sent on the wire. */
  public String wire() {
    return wire;
  }

  /** Whether this revision lets a client send a JSON array of messages. */
  public boolean allowsBatches() {
    return this == V2025_03_26;
  }

  /**
   * Whether SSE streams of this revision start with a priming event (an id and empty data) so the
   * client can resume; older clients may not expect an event without a JSON payload.
   */
  public boolean primesStreams() {
    return this == V2025_11_25;
  }

  /** The revision with this wire string, if we speak it. */
  public static Optional<ProtocolVersion> fromWire(String wire) {
    for (ProtocolVersion version : values()) {
      if (version.wire.equals(wire)) {
        return Optional.of(version);
      }
    }
    return Optional.empty();
  }
}
