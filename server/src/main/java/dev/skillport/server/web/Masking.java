package dev.skillport.server.web;

/**
 * Takes secret-looking values out of text before it is shown: the page shows skill-provided text
 * (descriptions, instructions, schemas, diagnostics, job errors), and none of it may reveal a
 * secret.
 */
@FunctionalInterface
public interface Masking {
  /** Text shown as it is. */
  Masking NONE = text -> text;

  /** The text with every secret in it masked; null stays null. */
  String text(String text);
}
