package dev.skillport.loader.discovery;

import dev.skillport.model.diagnostic.Diagnostic;
import java.util.List;

/**
 * What discovery found.
 *
 * @param skills every skill folder, each once, in root priority order then path order
 * @param diagnostics problems with roots and folders (none concerns a single skill's content)
 */
public record ScanResult(List<DiscoveredSkill> skills, List<Diagnostic> diagnostics) {
  public ScanResult {
    skills = List.copyOf(skills);
    diagnostics = List.copyOf(diagnostics);
  }
}
