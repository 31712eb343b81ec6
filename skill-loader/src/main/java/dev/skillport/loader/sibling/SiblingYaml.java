package dev.skillport.loader.sibling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.loader.yaml.SafeYaml;
import dev.skillport.loader.yaml.YamlDocument;
import dev.skillport.loader.yaml.YamlLocation;
import dev.skillport.loader.yaml.YamlProblem;
import dev.skillport.loader.yaml.YamlResult;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.InlineOrFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Reads sibling YAML files safely and checks their shape, reporting each problem with its file,
 * line and column.
 */
final class SiblingYaml {
  /** How many schema failures one diagnostic message lists before "and N more". */
  private static final int ISSUES_PER_MESSAGE = 3;

  private final SiblingContext ctx;
  private final SiblingPaths paths;

  SiblingYaml(SiblingContext ctx, SiblingPaths paths) {
    this.ctx = ctx;
    this.paths = paths;
  }

  /** Reads and parses {@code file}; empty when it was unreadable or rejected (reported). */
  Optional<YamlDocument> read(Path file) {
    return paths.readText(file).flatMap(text -> parse(text, file));
  }

  /** Parses YAML text that came from {@code file} (which may be SKILL.md for inline values). */
  Optional<YamlDocument> parse(String text, Path file) {
    YamlResult result = SafeYaml.parse(text, ctx.limits(), 0);
    if (result instanceof YamlResult.Parsed parsed) {
      return Optional.of(parsed.document());
    }
    YamlProblem problem = ((YamlResult.Rejected) result).problem();
    ctx.diagnostics()
        .report(code(problem.kind()), problem.message(), file, problem.location(), null);
    return Optional.empty();
  }

  static DiagnosticCode code(YamlProblem.Kind kind) {
    switch (kind) {
      case ALIASES:
        return DiagnosticCode.YAML_ALIAS_LIMIT;
      case DEPTH:
        return DiagnosticCode.YAML_DEPTH_LIMIT;
      case DUPLICATE_KEY:
        return DiagnosticCode.YAML_DUPLICATE_KEY;
      case KEY_NOT_STRING:
        return DiagnosticCode.YAML_KEY_NOT_STRING;
      case TOO_LARGE:
        return DiagnosticCode.SIBLING_TOO_LARGE;
      case SYNTAX:
      default:
        return DiagnosticCode.SIBLING_YAML;
    }
  }

  /**
   * Checks a whole file against its file-level schema; a failure is a {@code SIBLING_SCHEMA} error
   * and the file is not used.
   *
   * @param what a noun phrase for the message ({@code "tools file"})
   */
  boolean checkFile(SiblingSchema schema, YamlDocument doc, Path file, String what) {
    return checkWhole(schema, doc.root(), doc, file, DiagnosticCode.SIBLING_SCHEMA, what);
  }

  /**
   * Checks a whole value against a schema and reports a failure with {@code code}; {@code doc} may
   * be null for values written inline in SKILL.md.
   */
  boolean checkWhole(
      SiblingSchema schema,
      JsonNode value,
      YamlDocument doc,
      Path file,
      DiagnosticCode code,
      String what) {
    List<SiblingSchema.Issue> issues = schema.validate(value);
    if (issues.isEmpty()) {
      return true;
    }
    ctx.diagnostics()
        .report(
            code,
            "The " + what + " does not have the expected shape: " + summarize(issues),
            file,
            at(doc, issues.get(0).pointer()),
            null);
    return false;
  }

  /**
   * Checks one entry (at {@code pointer} in {@code doc}) against its entry schema; a failure is
   * reported with {@code code} (a per-entry warning) and the caller drops the entry.
   */
  boolean checkEntry(
      SiblingSchema schema,
      JsonNode entry,
      YamlDocument doc,
      String pointer,
      Path file,
      DiagnosticCode code,
      String what) {
    List<SiblingSchema.Issue> issues = schema.validate(entry);
    if (issues.isEmpty()) {
      return true;
    }
    ctx.diagnostics()
        .report(
            code,
            "The " + what + " was dropped: " + summarize(issues),
            file,
            at(doc, pointer + issues.get(0).pointer()),
            null);
    return false;
  }

  static String summarize(List<SiblingSchema.Issue> issues) {
    StringBuilder sb = new StringBuilder();
    int shown = Math.min(ISSUES_PER_MESSAGE, issues.size());
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        sb.append("; ");
      }
      sb.append(issues.get(i).describe());
    }
    if (issues.size() > shown) {
      sb.append("; and ").append(issues.size() - shown).append(" more");
    }
    return sb.toString();
  }

  /** A location for a value in a document, or unknown when there is no document. */
  static YamlLocation at(YamlDocument doc, String pointer) {
    return doc == null ? YamlLocation.UNKNOWN : doc.locate(pointer);
  }

  /**
   * A value read from a sibling file or written inline in SKILL.md.
   *
   * @param doc the parsed file, or null for inline values (no positions)
   * @param file the sibling file, or SKILL.md for inline values
   */
  record Source(JsonNode root, YamlDocument doc, Path file) {}

  /**
   * Resolves a metadata value that is either inline (a map, a list, or a string holding inline
   * JSON/YAML) or a string naming a sibling YAML file.
   */
  Optional<Source> inlineOrFile(String key, InlineOrFile value, String what) {
    if (value == null) {
      return Optional.empty();
    }
    return value.fold(
        text -> fromText(key, text, what),
        inline -> Optional.of(new Source(inline, null, paths.manifest())));
  }

  private Optional<Source> fromText(String key, String written, String what) {
    String text = written.strip();
    if (text.startsWith("{") || text.startsWith("[")) {
      return parse(text, paths.manifest()).map(d -> new Source(d.root(), null, paths.manifest()));
    }
    return paths
        .resolveFromManifest(key, text, what)
        .flatMap(file -> read(file).map(d -> new Source(d.root(), d, file)));
  }
}
