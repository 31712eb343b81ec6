package dev.skillport.loader.yaml;

/**
 * Limits applied while reading one YAML text.
 *
 * @param maxChars largest text accepted, in UTF-16 chars (checked before parsing)
 * @param maxAliases how many alias references ({@code *name}) a document may use
 * @param maxDepth deepest nesting of mappings and sequences, checked on the event stream
 * @param maxNodes how many values the document may expand to once aliases are resolved
 */
public record YamlLimits(int maxChars, int maxAliases, int maxDepth, int maxNodes) {
  /** Defaults for SKILL.md frontmatter: 256 KiB, 50 aliases, depth 64. */
  public static final YamlLimits FRONTMATTER = new YamlLimits(256 * 1024, 50, 64, 100_000);

  /** Defaults for sibling files, which may legitimately be larger than a frontmatter. */
  public static final YamlLimits SIBLING = new YamlLimits(4 * 1024 * 1024, 50, 64, 500_000);

  public YamlLimits {
    if (maxChars <= 0 || maxAliases < 0 || maxDepth <= 0 || maxNodes <= 0) {
      throw new IllegalArgumentException("YAML limits must be positive");
    }
  }
}
