package dev.skillport.loader.sibling;

import dev.skillport.api.skill.DccExtensions;
import dev.skillport.loader.report.DiagnosticCollector;
import dev.skillport.loader.yaml.YamlLimits;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What sibling-file reading needs to know about one skill.
 *
 * @param skillDir the skill folder (real path)
 * @param skillDescription used for the default tool description
 * @param limits YAML limits for sibling files
 * @param diagnostics where problems go (strict mode is applied there)
 */
public record SiblingContext(
    Path skillDir,
    String skillName,
    String skillDescription,
    DccExtensions extensions,
    YamlLimits limits,
    DiagnosticCollector diagnostics) {
  public SiblingContext {
    Objects.requireNonNull(skillDir, "skillDir");
    Objects.requireNonNull(skillName, "skillName");
    Objects.requireNonNull(extensions, "extensions");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(diagnostics, "diagnostics");
    skillDescription = skillDescription == null ? "" : skillDescription;
  }
}
