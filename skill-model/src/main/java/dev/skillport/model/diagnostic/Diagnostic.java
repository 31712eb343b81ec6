package dev.skillport.model.diagnostic;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;

/**
 * One problem found while reading skills.
 *
 * @param severity how serious it is
 * @param code the stable code
 * @param message what is wrong, in a sentence
 * @param file the file it is in, or {@code null} when it concerns no single file
 * @param line 1-based line, or 0 when unknown
 * @param column 1-based column, or 0 when unknown
 * @param skill the skill's name, or {@code null} when it concerns no single skill
 * @param hint how to fix it; {@code null} or blank gives the code's general {@link
 *     DiagnosticCode#hint()}
 */
public record Diagnostic(
    Severity severity,
    DiagnosticCode code,
    String message,
    Path file,
    int line,
    int column,
    String skill,
    String hint) {

  /** Orders diagnostics by file, position, code and message so output is deterministic. */
  public static final Comparator<Diagnostic> ORDER =
      Comparator.comparing((Diagnostic d) -> d.file == null ? "" : d.file.toString())
          .thenComparingInt(Diagnostic::line)
          .thenComparingInt(Diagnostic::column)
          .thenComparing(d -> d.skill == null ? "" : d.skill)
          .thenComparing(Diagnostic::code)
          .thenComparing(Diagnostic::message);

  public Diagnostic {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    if (line < 0 || column < 0) {
      throw new IllegalArgumentException("line and column must be >= 0");
    }
    if (hint == null || hint.isBlank()) {
      hint = code.hint();
    }
  }

  /** A diagnostic with the code's default severity. */
  public static Diagnostic of(
      DiagnosticCode code, String message, Path file, int line, int column) {
    return new Diagnostic(code.defaultSeverity(), code, message, file, line, column, null, null);
  }

  public Diagnostic withSkill(String skillName) {
    return new Diagnostic(severity, code, message, file, line, column, skillName, hint);
  }

  public Diagnostic withHint(String newHint) {
    return new Diagnostic(severity, code, message, file, line, column, skill, newHint);
  }

  public Diagnostic withSeverity(Severity newSeverity) {
    return new Diagnostic(newSeverity, code, message, file, line, column, skill, hint);
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  /** Renders {@code file:line:col: severity CODE message (hint)}, omitting unknown parts. */
  public String format() {
    StringBuilder sb = new StringBuilder();
    if (file != null) {
      sb.append(file);
      if (line > 0) {
        sb.append(':').append(line);
        if (column > 0) {
          sb.append(':').append(column);
        }
      }
      sb.append(": ");
    }
    sb.append(severity.label()).append(' ').append(code.name()).append(' ').append(message);
    if (hint != null && !hint.isEmpty()) {
      sb.append(" (").append(hint).append(')');
    }
    return sb.toString();
  }
}
