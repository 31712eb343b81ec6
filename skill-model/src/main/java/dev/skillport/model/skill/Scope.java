package dev.skillport.model.skill;

import java.util.Locale;
import java.util.Optional;

/** Where a skill root comes from; a higher scope wins when two skills share a name. */
public enum Scope {
  REPO,
  USER,
  TEAM,
  SYSTEM,
  ADMIN;

  /** The lower-case name used in CLI arguments, output and on the wire. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a label such as {@code team}; empty when the word names no scope. */
  public static Optional<Scope> parse(String label) {
    for (Scope s : values()) {
      if (s.label().equalsIgnoreCase(label.trim())) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
