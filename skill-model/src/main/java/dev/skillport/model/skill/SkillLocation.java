package dev.skillport.model.skill;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a skill was found.
 *
 * @param directory the skill folder
 * @param skillFile its SKILL.md (or {@code skill.md})
 * @param root the skill root it was discovered under
 * @param scope the root's scope
 * @param rootOrder the root's position in priority order (0 = highest) within its scope
 */
public record SkillLocation(Path directory, Path skillFile, Path root, Scope scope, int rootOrder) {
  public SkillLocation {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(skillFile, "skillFile");
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(scope, "scope");
    if (rootOrder < 0) {
      throw new IllegalArgumentException("rootOrder must be >= 0");
    }
  }
}
