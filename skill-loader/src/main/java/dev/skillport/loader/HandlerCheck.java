package dev.skillport.loader;

import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.model.skill.ToolBinding;
import dev.skillport.model.skill.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Checks the Java handlers a catalog's tools name against the handler ids known to be registered:
 * each tool whose {@code handler:} no one registers gets {@link
 * DiagnosticCode#HANDLER_NOT_REGISTERED} at that line of its tools file. At {@link Severity#ERROR}
 * its skill is {@link SkillState#SKIPPED}, so it is neither listed nor loadable: a skill whose
 * tools would all answer {@code NO_HANDLER} is not offered.
 *
 * @param registered whether a handler id is registered
 * @param severity {@link Severity#ERROR} when {@code registered} knows every handler there is (a
 *     server), {@link Severity#WARNING} when a handler may come from elsewhere (a command that
 *     starts no plugins)
 */
public record HandlerCheck(Predicate<String> registered, Severity severity) {
  public HandlerCheck {
    Objects.requireNonNull(registered, "registered");
    Objects.requireNonNull(severity, "severity");
  }

  /** {@code loaded} with a diagnostic per unregistered handler, and its skill skipped on errors. */
  public LoadResult apply(LoadResult loaded) {
    List<Skill> skills = new ArrayList<>(loaded.skills().size());
    List<Diagnostic> diagnostics = new ArrayList<>(loaded.diagnostics());
    boolean changed = false;
    for (Skill skill : loaded.skills()) {
      List<Diagnostic> missing =
          skill.state() == SkillState.AVAILABLE || skill.state() == SkillState.PENDING_DEPS
              ? missing(skill)
              : List.of();
      diagnostics.addAll(missing);
      changed |= !missing.isEmpty();
      skills.add(
          !missing.isEmpty() && severity == Severity.ERROR
              ? skill.withState(SkillState.SKIPPED, null)
              : skill);
    }
    if (!changed) {
      return loaded;
    }
    diagnostics.sort(Diagnostic.ORDER);
    return new LoadResult(skills, diagnostics);
  }

  private List<Diagnostic> missing(Skill skill) {
    List<Diagnostic> out = new ArrayList<>();
    for (ToolSpec tool : skill.tools()) {
      if (tool.binding() instanceof ToolBinding.Handler h && !registered.test(h.handlerId())) {
        out.add(h.notRegistered(skill, tool.name(), severity));
      }
    }
    return out;
  }
}
