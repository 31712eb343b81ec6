package dev.skillport.model.skill;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A place a path argument may point into, as a tools file names it: {@code skill}, {@code roots},
 * {@code workdir}, {@code allowed} or {@code allowed:NAME}.
 *
 * @param kind which place
 * @param name for {@link Kind#ALLOWED}, the operator's name of one allowed folder ({@code serve
 *     --allow-path NAME=DIR}); null for any allowed folder and for the other kinds
 */
public record PathPlace(Kind kind, String name) {
  /** The rule for an allowed folder's name: lowercase letters, digits, {@code _} and {@code -}. */
  public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

  /** The kinds of place. */
  public enum Kind {
    /** The skill's own folder (where its scripts run). */
    SKILL,
    /** The folders the calling client shares as MCP roots (2025 era; a stateless call has none). */
    ROOTS,
    /** The server's working directory (where {@code skillport serve} was started). */
    WORKDIR,
    /** The folders the operator allows with {@code serve --allow-path}. */
    ALLOWED;

    /** The word a tools file writes. */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static final PathPlace SKILL = new PathPlace(Kind.SKILL, null);
  public static final PathPlace ROOTS = new PathPlace(Kind.ROOTS, null);
  public static final PathPlace WORKDIR = new PathPlace(Kind.WORKDIR, null);
  public static final PathPlace ALLOWED = new PathPlace(Kind.ALLOWED, null);

  public PathPlace {
    Objects.requireNonNull(kind, "kind");
    if (name != null && (kind != Kind.ALLOWED || !NAME.matcher(name).matches())) {
      throw new IllegalArgumentException("not a place: " + kind.word() + ":" + name);
    }
  }

  /**
   * The place a tools file's word names ({@code skill}, {@code roots}, {@code workdir}, {@code
   * allowed}, {@code allowed:NAME}); empty when it names none.
   */
  public static Optional<PathPlace> parse(String word) {
    String w = word.strip();
    if (w.startsWith("allowed:")) {
      String n = w.substring("allowed:".length());
      return NAME.matcher(n).matches()
          ? Optional.of(new PathPlace(Kind.ALLOWED, n))
          : Optional.empty();
    }
    for (Kind k : Kind.values()) {
      if (k.word().equals(w)) {
        return Optional.of(new PathPlace(k, null));
      }
    }
    return Optional.empty();
  }

  /** The word a tools file writes for this place. */
  public String label() {
    return name == null ? kind.word() : kind.word() + ":" + name;
  }
}
