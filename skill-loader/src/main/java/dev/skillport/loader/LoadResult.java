package dev.skillport.loader;

import dev.skillport.loader.resolve.DependencyOrder;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import java.util.List;
import java.util.Optional;

/**
 * What the loader found: every discovered skill (shadowed and rejected ones included) and every
 * diagnostic, both in a deterministic order.
 *
 * @param skills sorted by name, then the skill that answers to the name first (available or
 *     pending, then rejected, then shadowed), then scope (highest first), root order and path
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

  /**
   * The skill named {@code name} preceded by everything it depends on, transitively, dependencies
   * first: the order in which to load them. Empty when no usable skill has that name; dependencies
   * that are not usable are left out (the skill is then {@code PENDING_DEPS} anyway).
   */
  public List<Skill> loadOrder(String name) {
    return DependencyOrder.of(skills, name);
  }

  /** Every usable skill (not shadowed, not rejected), dependencies before their dependents. */
  public List<Skill> loadOrder() {
    return DependencyOrder.all(skills);
  }

  public boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }
}
