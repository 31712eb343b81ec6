package dev.skillport.web;

/**
 * Takes secret-looking values out of what the page shows: the page shows skill-provided text
 * (descriptions, instructions, schemas, diagnostics, job errors), and none of it may reveal a
 * secret.
 */
public interface Masking {
  /** Text shown as it is. */
  Masking NONE = text -> text;

  /**
   * Free text with every secret in it masked (known secret values, and the value of every {@code
   * NAME=value} whose name is secret); null stays null.
   */
  String text(String text);

  /** Structured text (JSON) with known secret values masked, its keys and shape kept. */
  default String values(String text) {
    return text;
  }

  /** Whether a value under this key or argument name is secret (then it is not shown). */
  default boolean secretName(String name) {
    return false;
  }
}
