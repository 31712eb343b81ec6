package dev.skillport.model.diagnostic;

import java.util.Locale;

/** How serious a diagnostic is; errors keep the skill from loading. */
public enum Severity {
  ERROR,
  WARNING,
  NOTICE;

  /** The lower-case word used in printed diagnostics and on the wire. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
