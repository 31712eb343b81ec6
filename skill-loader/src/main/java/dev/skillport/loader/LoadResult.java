package dev.skillport.loader;

import dev.skillport.api.diagnostic.Diagnostic;
import dev.skillport.api.skill.Skill;
import dev.skillport.api.skill.SkillState;
import java.util.List;
import java.util.Optional;

/**
 * What the loader found: every discovered skill (shadowed and rejected ones included) and every
 * diagnostic, both in a deterministic order.
 *
 * @param skills sorted by name, then winner first (state not SHADOWED), then scope and path
 * @param diagnostics sorted by {@link Diagnostic#ORDER}
 */
public record LoadResult(List<Skill> skills, List<Diagnostic> diagnostics) {
  public LoadResult {
    skills = List.copyOf(skills);
    diagnostics = List.copyOf(diagnostics);
  }

  /** The skill that answers to {@code name}: the one not shadowed. */
  public Optional<Skill> skill(String name) {
    return skills.stream()
        .filter(s -> s.name().equals(name) && s.state() != SkillState.SHADOWED)
        .findFirst();
  }

  /** The diagnostics attributed to a skill name. */
  public List<Diagnostic> diagnosticsFor(String skillName) {
    return diagnostics.stream().filter(d -> skillName.equals(d.skill())).toList();
  }

  public boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }
}
