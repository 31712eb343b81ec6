package dev.skillport.model.skill;

import java.util.regex.Pattern;

/**
 * The rule a skill's name follows (the Agent Skills format's): 1 to {@value #MAX_LENGTH} lowercase
 * letters and digits in hyphen-separated runs. The loader checks {@code SKILL.md} against it; the
 * scaffold and the authoring tools check a new name the same way.
 */
public final class SkillNames {
  /** The longest name, in code points. */
  public static final int MAX_LENGTH = 64;

  /** Lowercase letters and digits, runs joined by single hyphens. */
  public static final Pattern PATTERN = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");

  private SkillNames() {}

  /** Whether {@code name} follows the rule. */
  public static boolean isValid(String name) {
    return name != null
        && !name.isEmpty()
        && name.codePointCount(0, name.length()) <= MAX_LENGTH
        && PATTERN.matcher(name).matches();
  }

  /** The rule in words, for messages. */
  public static String rule() {
    return "1-"
        + MAX_LENGTH
        + " lowercase letters, digits and single hyphens, not starting or ending with '-'";
  }
}
