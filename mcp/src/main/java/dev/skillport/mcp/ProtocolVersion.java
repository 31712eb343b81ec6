package dev.skillport.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The MCP protocol revisions this server speaks, newest first. */
public enum ProtocolVersion {
  /** Stateless: per-request {@code _meta}, no handshake, no sessions. */
  V2026_07_28("2026-07-28", Era.MODERN),
  /** The newest revision with sessions; answered to an {@code initialize} we cannot match. */
  V2025_11_25("2025-11-25", Era.LEGACY),
  /** Removed JSON-RPC batching; added structured tool output and elicitation. */
  V2025_06_18("2025-06-18", Era.LEGACY),
  /** Introduced Streamable HTTP; the only revision that allows JSON-RPC batches. */
  V2025_03_26("2025-03-26", Era.LEGACY);

  /** The revision answered when an {@code initialize} asks for one we do not speak. */
  public static final ProtocolVersion LATEST = V2025_11_25;

  private final String wire;
  private final Era era;

  ProtocolVersion(String wire, Era era) {
    this.wire = wire;
    this.era = era;
  }

  /** The revision's date string as sent on the wire. */
  public String wire() {
    return wire;
  }

  /** Which family the revision belongs to. */
  public Era era() {
    return era;
  }

  /** Whether this revision lets a client send a JSON array of messages. */
  public boolean allowsBatches() {
    return this == V2025_03_26;
  }

  /**
   * Whether SSE streams of this revision start with a priming event (an id and empty data) so the
   * client can resume; older clients may not expect an event without a JSON payload, and the
   * stateless revision has no resumable streams.
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

  /** The wire strings of every revision we speak, newest first. */
  public static List<String> supportedWire() {
    List<String> out = new ArrayList<>();
    for (ProtocolVersion version : values()) {
      out.add(version.wire);
    }
    return List.copyOf(out);
  }
}
