package dev.skillport.loader.yaml;

/**
 * Why a YAML text was rejected, with where.
 *
 * @param kind the class of problem; callers map it to a diagnostic code
 * @param message a sentence for the author
 */
public record YamlProblem(Kind kind, String message, YamlLocation location) {

  /** The classes of rejection. */
  public enum Kind {
    SYNTAX,
    TOO_LARGE,
    ALIASES,
    DEPTH,
    DUPLICATE_KEY,
    KEY_NOT_STRING
  }
}
