package dev.skillport.model.skill;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What SKILL.md says: the Agent Skills frontmatter fields, the verbatim frontmatter and metadata,
 * the Markdown body, and the typed {@code metadata.dcc-mcp} extensions.
 *
 * @param name the skill name (the directory name when the frontmatter has none)
 * @param license or {@code null}
 * @param compatibility or {@code null}
 * @param allowedTools the {@code allowed-tools} entries, split on spaces
 * @param metadata the {@code metadata} mapping exactly as written, key order kept
 * @param frontmatter every top-level key exactly as written, unknown ones included
 * @param body the Markdown after the frontmatter: the skill's instructions
 */
public record SkillManifest(
    String name,
    String description,
    String license,
    String compatibility,
    List<String> allowedTools,
    Map<String, Object> metadata,
    Map<String, Object> frontmatter,
    String body,
    DccExtensions extensions) {
  public SkillManifest {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    allowedTools = Immutables.list(allowedTools);
    metadata = Immutables.map(metadata);
    frontmatter = Immutables.map(frontmatter);
    body = body == null ? "" : body;
    extensions = extensions == null ? DccExtensions.NONE : extensions;
  }
}
