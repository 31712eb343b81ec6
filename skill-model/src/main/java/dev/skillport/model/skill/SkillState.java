package dev.skillport.model.skill;

import java.util.Locale;

/** What the loader, and then the server's operator, concluded about a discovered skill. */
public enum SkillState {
  /** Valid, with all dependencies present: it may be loaded into a session. */
  AVAILABLE,
  /** Valid, but waiting for a dependency that is not there yet. */
  PENDING_DEPS,
  /** Another skill with the same name wins by scope or root order. */
  SHADOWED,
  /** Rejected by an error diagnostic. */
  SKIPPED,
  /**
   * Valid, but the operator's allow or deny list keeps it from being listed, loaded or called; a
   * {@code SKILL_DENIED} diagnostic says why.
   */
  DENIED;

  /** The lower-case word used in output and on the wire, e.g. {@code pending_deps}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
