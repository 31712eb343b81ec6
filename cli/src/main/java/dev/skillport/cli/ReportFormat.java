package dev.skillport.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.cli.ValidationReport.SkillVerdict;
import dev.skillport.cli.ValidationReport.Verdict;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.Severity;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/** How {@code skillport validate} prints its report. */
enum ReportFormat {
  /** One line per skill, its diagnostics indented below, a summary line last. For people. */
  TEXT {
    @Override
    void write(ValidationReport report, PrintWriter out) {
      for (SkillVerdict s : report.skills()) {
        out.printf(
            "%s %s (%s, %s) %s%n",
            s.verdict().name(),
            s.skill().name(),
            s.skill().state().label(),
            s.skill().scope().label(),
            s.path());
        s.diagnostics().forEach(d -> out.println("  " + d.format()));
      }
      report.general().forEach(d -> out.println(d.format()));
      out.println(summary(report));
      out.flush();
    }
  },

  /**
   * One JSON document, shape version 1 (documented in the README): every key is always present,
   * unknown values are {@code null}, so scripts can rely on it.
   */
  JSON {
    @Override
    void write(ValidationReport report, PrintWriter out) {
      ObjectNode root = MAPPER.createObjectNode();
      root.put("version", 1);
      root.put("strict", report.strict());
      root.put("passed", report.passed());
      ObjectNode summary = root.putObject("summary");
      summary.put("skills", report.skills().size());
      for (Verdict v : Verdict.values()) {
        summary.put(v.label(), report.count(v));
      }
      for (Severity s : Severity.values()) {
        summary.put(plural(s), report.count(s));
      }
      ArrayNode skills = root.putArray("skills");
      for (SkillVerdict s : report.skills()) {
        ObjectNode skill = skills.addObject();
        skill.put("name", s.skill().name());
        skill.put("path", s.path());
        skill.put("scope", s.skill().scope().label());
        skill.put("state", s.skill().state().label());
        skill.put("verdict", s.verdict().label());
        skill.put("tools", s.skill().tools().size());
        addDiagnostics(skill.putArray("diagnostics"), s.diagnostics());
      }
      addDiagnostics(root.putArray("diagnostics"), report.general());
      try {
        out.println(MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root));
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
      out.flush();
    }
  };

  private static final ObjectMapper MAPPER = new ObjectMapper();

  abstract void write(ValidationReport report, PrintWriter out);

  private static void addDiagnostics(ArrayNode array, List<Diagnostic> diagnostics) {
    for (Diagnostic d : diagnostics) {
      ObjectNode node = array.addObject();
      node.put("severity", d.severity().label());
      node.put("code", d.code().name());
      node.put("message", d.message());
      node.put("file", d.file() == null ? null : d.file().toString());
      node.put("line", d.line());
      node.put("column", d.column());
      node.put("skill", d.skill());
      node.put("hint", d.hint());
    }
  }

  private static String summary(ValidationReport report) {
    if (report.skills().isEmpty()) {
      return "No skills found." + (report.general().isEmpty() ? "" : " " + counts(report));
    }
    return String.format(
        Locale.ROOT,
        "%s: %d passed, %d with warnings, %d failed; %s%s",
        counted(report.skills().size(), "skill"),
        report.count(Verdict.PASS),
        report.count(Verdict.WARN),
        report.count(Verdict.FAIL),
        counts(report),
        report.strict() ? " (strict)" : "");
  }

  private static String counts(ValidationReport report) {
    return String.join(
        ", ",
        counted(report.count(Severity.ERROR), "error"),
        counted(report.count(Severity.WARNING), "warning"),
        counted(report.count(Severity.NOTICE), "notice"));
  }

  private static String counted(long n, String word) {
    return n + " " + word + (n == 1 ? "" : "s");
  }

  private static String plural(Severity severity) {
    return severity.label() + "s";
  }
}
