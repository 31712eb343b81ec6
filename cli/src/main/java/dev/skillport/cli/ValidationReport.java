package dev.skillport.cli;

import dev.skillport.loader.LoadResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillState;
import dev.skillport.runtime.secrets.Redactor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of {@code skillport validate}: each skill with its verdict and own diagnostics, and
 * the diagnostics that concern no single skill (roots, discovery). Paths are already in display
 * form.
 *
 * @param strict whether the skills were read in strict mode
 * @param skills in the loader's order
 * @param general diagnostics attributed to no skill found
 */
record ValidationReport(boolean strict, List<SkillVerdict> skills, List<Diagnostic> general) {

  ValidationReport {
    skills = List.copyOf(skills);
    general = List.copyOf(general);
  }

  /** A skill's verdict: the worst severity among its diagnostics, or a rejected state. */
  enum Verdict {
    PASS,
    WARN,
    FAIL;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One skill, its verdict and the diagnostics that belong to it.
   *
   * @param path the skill folder, for display
   */
  record SkillVerdict(Skill skill, String path, Verdict verdict, List<Diagnostic> diagnostics) {
    SkillVerdict {
      Objects.requireNonNull(skill, "skill");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(verdict, "verdict");
      diagnostics = List.copyOf(diagnostics);
    }
  }

  /**
   * Groups a load result by skill. A diagnostic belongs to a skill when it names the skill and its
   * file (if any) lies in the skill's folder, so two same-named skills in different roots each keep
   * their own diagnostics. Linear in the number of diagnostics: they are grouped by skill name
   * once, and each distinct file is resolved and shown once.
   */
  static ValidationReport of(LoadResult result, boolean strict, DisplayPaths paths) {
    List<Diagnostic> all = result.diagnostics();
    Map<String, List<Integer>> byName = new HashMap<>();
    for (int i = 0; i < all.size(); i++) {
      String skill = all.get(i).skill();
      if (skill != null) {
        byName.computeIfAbsent(skill, k -> new ArrayList<>()).add(i);
      }
    }
    Map<Path, Path> canonical = new HashMap<>();
    Redactor.shared().learn(result.skills());
    Shown shown = new Shown(paths);
    boolean[] claimed = new boolean[all.size()];
    List<SkillVerdict> verdicts = new ArrayList<>();
    for (Skill skill : result.skills()) {
      Path dir = DisplayPaths.canonical(skill.location().directory());
      List<Diagnostic> own = new ArrayList<>();
      for (int i : byName.getOrDefault(skill.name(), List.of())) {
        Diagnostic d = all.get(i);
        if (d.file() == null
            || canonical.computeIfAbsent(d.file(), DisplayPaths::canonical).startsWith(dir)) {
          own.add(d);
          claimed[i] = true;
        }
      }
      verdicts.add(
          new SkillVerdict(
              skill,
              paths.show(skill.location().directory()),
              verdictOf(skill, own),
              own.stream().map(shown::of).toList()));
    }
    List<Diagnostic> general = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (!claimed[i]) {
        general.add(shown.of(all.get(i)));
      }
    }
    return new ValidationReport(strict, verdicts, general);
  }

  /** Diagnostics with their files in display form, each distinct file shown once. */
  private static final class Shown {
    private final DisplayPaths paths;
    private final Map<Path, Path> files = new HashMap<>();

    Shown(DisplayPaths paths) {
      this.paths = paths;
    }

    Diagnostic of(Diagnostic original) {
      // Reports are pasted into issues and CI logs: no secret a skill wrote shows in them.
      Diagnostic d = Redactor.shared().diagnostic(original);
      if (d.file() == null) {
        return d;
      }
      Path file = files.computeIfAbsent(d.file(), f -> Path.of(paths.show(f)));
      return new Diagnostic(
          d.severity(), d.code(), d.message(), file, d.line(), d.column(), d.skill(), d.hint());
    }
  }

  private static Verdict verdictOf(Skill skill, List<Diagnostic> own) {
    if (skill.state() == SkillState.SKIPPED || own.stream().anyMatch(Diagnostic::isError)) {
      return Verdict.FAIL;
    }
    return own.stream().anyMatch(d -> d.severity() == Severity.WARNING)
        ? Verdict.WARN
        : Verdict.PASS;
  }

  long count(Verdict verdict) {
    return skills.stream().filter(s -> s.verdict() == verdict).count();
  }

  long count(Severity severity) {
    return skills.stream()
            .flatMap(s -> s.diagnostics().stream())
            .filter(d -> d.severity() == severity)
            .count()
        + general.stream().filter(d -> d.severity() == severity).count();
  }

  /**
   * Whether validation passed: at least one skill was found, none failed and no error was reported.
   * Finding no skill fails, so a path that holds none is noticed.
   */
  boolean passed() {
    return !skills.isEmpty() && count(Verdict.FAIL) == 0 && count(Severity.ERROR) == 0;
  }
}
