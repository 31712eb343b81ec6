package dev.skillport.loader;

import dev.skillport.loader.yaml.YamlLimits;
import java.util.Objects;

/**
 * How the loader reads skills.
 *
 * @param strict upstream behaviour: unknown keys and per-entry problems are errors
 * @param maxDepth how many directory levels below a root discovery descends
 * @param frontmatterLimits YAML limits for SKILL.md frontmatter
 * @param siblingLimits YAML limits for sibling files
 */
public record LoaderOptions(
    boolean strict, int maxDepth, YamlLimits frontmatterLimits, YamlLimits siblingLimits) {

  public static final LoaderOptions DEFAULTS =
      new LoaderOptions(false, 4, YamlLimits.FRONTMATTER, YamlLimits.SIBLING);

  public LoaderOptions {
    Objects.requireNonNull(frontmatterLimits, "frontmatterLimits");
    Objects.requireNonNull(siblingLimits, "siblingLimits");
    if (maxDepth < 0) {
      throw new IllegalArgumentException("maxDepth must be >= 0");
    }
  }

  public LoaderOptions withStrict(boolean value) {
    return new LoaderOptions(value, maxDepth, frontmatterLimits, siblingLimits);
  }

  public LoaderOptions withMaxDepth(int value) {
    return new LoaderOptions(strict, value, frontmatterLimits, siblingLimits);
  }
}
