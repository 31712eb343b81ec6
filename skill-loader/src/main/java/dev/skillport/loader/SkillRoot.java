package dev.skillport.loader;

import dev.skillport.model.skill.Scope;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A directory given to the loader, with its scope and where it was configured.
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
}
