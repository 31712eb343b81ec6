package dev.skillport.model.skill;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A directory of skills, with its scope and who named it: what the command line gives the loader
 * and what discovery walks. In the skill model so that the loader's entry package and its discovery
 * package share it without depending on each other.
 *
 * @param origin who named it, for diagnostics ({@code --skills}, {@code SKILLPORT_SKILL_PATHS}, …)
 */
public record SkillRoot(Path path, Scope scope, String origin) {
  public SkillRoot {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(scope, "scope");
    origin = origin == null ? "" : origin;
  }

  public static SkillRoot of(Path path, Scope scope) {
    return new SkillRoot(path, scope, "");
  }

  // A hash key of every load: written out, with the generated methods' meaning, because those are
  // bootstrapped at their first call (decision 0034).

  @Override
  public boolean equals(Object o) {
    return o instanceof SkillRoot r
        && path.equals(r.path)
        && scope == r.scope
        && origin.equals(r.origin);
  }

  @Override
  public int hashCode() {
    return (31 * path.hashCode() + scope.hashCode()) * 31 + origin.hashCode();
  }
}
