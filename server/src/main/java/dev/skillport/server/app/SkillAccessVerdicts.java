package dev.skillport.server.app;

import dev.skillport.loader.LoadResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.GroupSpec;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.SkillAccess;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Applies the operator's {@link SkillAccess} to what the loader found, before the catalog is built:
 * a denied skill becomes {@link SkillState#DENIED} with a {@code SKILL_DENIED} diagnostic giving
 * the reason, so it is neither listed nor loadable nor offered by search in either protocol era; a
 * denied tool of an allowed skill is taken out of the skill (and its groups) with a {@code
 * TOOL_DENIED} diagnostic, so no listing or call can reach it. Applying it twice changes nothing
 * more, so it may run before and after the bridges add their tools.
 */
public final class SkillAccessVerdicts implements UnaryOperator<LoadResult> {
  private final SkillAccess access;

  public SkillAccessVerdicts(SkillAccess access) {
    this.access = Objects.requireNonNull(access, "access");
  }

  @Override
  public LoadResult apply(LoadResult loaded) {
    if (access.isOpen()) {
      return loaded;
    }
    List<Skill> skills = new ArrayList<>(loaded.skills().size());
    List<Diagnostic> diagnostics = new ArrayList<>(loaded.diagnostics());
    for (Skill s : loaded.skills()) {
      if (s.state() == SkillState.SHADOWED || s.state() == SkillState.DENIED) {
        skills.add(s);
        continue;
      }
      Optional<String> denial = access.skillDenial(s.name());
      if (denial.isPresent()) {
        skills.add(s.withState(SkillState.DENIED, null));
        diagnostics.add(diagnostic(DiagnosticCode.SKILL_DENIED, s, denial.get()));
        continue;
      }
      skills.add(withoutDeniedTools(s, diagnostics));
    }
    diagnostics.sort(Diagnostic.ORDER);
    return new LoadResult(skills, diagnostics);
  }

  private Skill withoutDeniedTools(Skill s, List<Diagnostic> diagnostics) {
    List<ToolSpec> kept = new ArrayList<>(s.tools().size());
    Set<String> removed = new HashSet<>();
    for (ToolSpec t : s.tools()) {
      Optional<String> denial = access.toolDenial(s.name(), t.name());
      if (denial.isPresent()) {
        removed.add(t.name());
        diagnostics.add(diagnostic(DiagnosticCode.TOOL_DENIED, s, denial.get()));
      } else {
        kept.add(t);
      }
    }
    if (removed.isEmpty()) {
      return s;
    }
    List<GroupSpec> groups = new ArrayList<>(s.groups().size());
    for (GroupSpec g : s.groups()) {
      groups.add(
          new GroupSpec(
              g.name(),
              g.description(),
              g.tools().stream().filter(t -> !removed.contains(t)).toList(),
              g.defaultActive()));
    }
    return new Skill(
        s.manifest(),
        s.location(),
        s.state(),
        kept,
        groups,
        s.prompts(),
        s.resources(),
        s.workflows(),
        s.externalDeps(),
        s.runtimes(),
        s.mcpBridge(),
        s.shadowedBy());
  }

  private static Diagnostic diagnostic(DiagnosticCode code, Skill s, String message) {
    return new Diagnostic(
        code.defaultSeverity(),
        code,
        message,
        s.location().skillFile(),
        0,
        0,
        s.name(),
        code.hint());
  }
}
