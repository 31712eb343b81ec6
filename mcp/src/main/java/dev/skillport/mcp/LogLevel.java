package dev.skillport.mcp;

import java.util.Locale;
import java.util.Optional;

/** MCP log levels (RFC 5424 severities), least severe first. */
public enum LogLevel {
  DEBUG,
  INFO,
  NOTICE,
  WARNING,
  ERROR,
  CRITICAL,
  ALERT,
  EMERGENCY;

  /** The level's name on the wire, for example {@code "warning"}. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a message of this level passes a session threshold of {@code threshold}. */
  public boolean atLeast(LogLevel threshold) {
    return compareTo(threshold) >= 0;
  }

  /** The level with this wire name, if any. */
  public static Optional<LogLevel> fromWire(String wire) {
    for (LogLevel level : values()) {
      if (level.wire().equals(wire)) {
        return Optional.of(level);
      }
    }
    return Optional.empty();
  }
}
