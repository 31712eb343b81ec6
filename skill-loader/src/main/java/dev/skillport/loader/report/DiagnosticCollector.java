package dev.skillport.loader.report;

import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.diagnostic.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the diagnostics of one skill (or of discovery as a whole when {@code skill} is null).
 * Strict mode raises the warnings that upstream treats as errors; it is applied here and nowhere
 * else.
 */
public final class DiagnosticCollector {
  private final boolean strict;
  private final String skill;
  private final List<Diagnostic> diagnostics = new ArrayList<>();

  public DiagnosticCollector(boolean strict, String skill) {
    this.strict = strict;
    this.skill = skill;
  }

  public boolean strict() {
    return strict;
  }

  /** Reports a problem at a position; {@code hint} may be null. */
  public Diagnostic report(
      DiagnosticCode code, String message, Path file, YamlLocation at, String hint) {
    Severity severity = code.defaultSeverity();
    if (strict && code.raisedByStrict()) {
      severity = Severity.ERROR;
    }
    YamlLocation where = at == null ? YamlLocation.UNKNOWN : at;
    Diagnostic d =
        new Diagnostic(severity, code, message, file, where.line(), where.column(), skill, hint);
    diagnostics.add(d);
    return d;
  }

  /** Reports a problem that concerns a whole file (or none). */
  public Diagnostic report(DiagnosticCode code, String message, Path file) {
    return report(code, message, file, YamlLocation.UNKNOWN, null);
  }

  /** Adds diagnostics made elsewhere, attributing them to this collector's skill. */
  public void addAll(List<Diagnostic> more) {
    for (Diagnostic d : more) {
      diagnostics.add(skill != null && d.skill() == null ? d.withSkill(skill) : d);
    }
  }

  public boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }

  /** The diagnostics so far, in report order. */
  public List<Diagnostic> diagnostics() {
    return List.copyOf(diagnostics);
  }
}
