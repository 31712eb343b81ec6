package dev.skillport.model.skill;

import java.util.Locale;
import java.util.Optional;

/** The search-ranking layer a skill declares in {@code metadata.dcc-mcp.layer}. */
public enum Layer {
  DOMAIN,
  INFRASTRUCTURE,
  THIN_HARNESS,
  EXAMPLE;

  /** The spelling used in SKILL.md, e.g. {@code thin-harness}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Optional<Layer> parse(String text) {
    String norm = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (Layer l : values()) {
      if (l.label().equals(norm)) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }
}
