package dev.skillport.loader.sibling;

import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.skillmd.ManifestKeys;
import dev.skillport.loader.yaml.YamlLimits;
import dev.skillport.model.skill.DccExtensions;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What sibling-file reading needs to know about one skill.
 *
 * @param skillDir the skill folder
 * @param skillDescription used for the default tool description
 * @param limits YAML limits for sibling files
 * @param diagnostics where problems go (strict mode is applied there)
 * @param skillDirReal true when {@code skillDir} is known to be a real path (discovery walks real
 *     paths only), so it is not resolved again; false to have it resolved
 * @param manifestKeys where SKILL.md writes its keys, so problems with a pointer written there
 *     carry its line
 */
public record SiblingContext(
    Path skillDir,
    String skillName,
    String skillDescription,
    DccExtensions extensions,
    YamlLimits limits,
    DiagnosticCollector diagnostics,
    boolean skillDirReal,
    ManifestKeys manifestKeys) {
  public SiblingContext {
    Objects.requireNonNull(skillDir, "skillDir");
    Objects.requireNonNull(skillName, "skillName");
    Objects.requireNonNull(extensions, "extensions");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(diagnostics, "diagnostics");
    skillDescription = skillDescription == null ? "" : skillDescription;
    manifestKeys = manifestKeys == null ? ManifestKeys.NONE : manifestKeys;
  }

  /** A context that knows no positions of SKILL.md keys. */
  public SiblingContext(
      Path skillDir,
      String skillName,
      String skillDescription,
      DccExtensions extensions,
      YamlLimits limits,
      DiagnosticCollector diagnostics,
      boolean skillDirReal) {
    this(
        skillDir,
        skillName,
        skillDescription,
        extensions,
        limits,
        diagnostics,
        skillDirReal,
        ManifestKeys.NONE);
  }

  /** A context whose skill folder is resolved to its real path before use. */
  public SiblingContext(
      Path skillDir,
      String skillName,
      String skillDescription,
      DccExtensions extensions,
      YamlLimits limits,
      DiagnosticCollector diagnostics) {
    this(skillDir, skillName, skillDescription, extensions, limits, diagnostics, false);
  }
}
