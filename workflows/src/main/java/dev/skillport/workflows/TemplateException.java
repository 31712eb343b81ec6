package dev.skillport.workflows;

/** A template or JSONPath that cannot be evaluated: an unknown reference, a bad path. */
public final class TemplateException extends Exception {
  private static final long serialVersionUID = 1L;

  TemplateException(String message) {
    super(message);
  }
}
