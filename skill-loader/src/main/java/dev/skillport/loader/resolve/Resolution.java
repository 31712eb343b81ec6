package dev.skillport.loader.resolve;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Skill;
import java.util.List;

/**
 * The skills with their final states, and the diagnostics that explain them.
 *
 * @param skills in the order they were given
 * @param diagnostics shadowing and dependency diagnostics
 */
public record Resolution(List<Skill> skills, List<Diagnostic> diagnostics) {
  public Resolution {
    skills = List.copyOf(skills);
    diagnostics = List.copyOf(diagnostics);
  }
}
