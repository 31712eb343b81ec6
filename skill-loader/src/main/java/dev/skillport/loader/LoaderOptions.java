package dev.skillport.loader;

import dev.skillport.loader.skillmd.SkillMdParser;
import dev.skillport.loader.yaml.YamlLimits;
import java.util.Objects;

/**
 * How the loader reads skills.
 *
 * @param strict upstream behaviour: unknown keys and per-entry problems are errors
 * @param maxDepth how many directory levels below a root discovery descends
 * @param frontmatterLimits YAML limits for SKILL.md frontmatter
 * @param siblingLimits YAML limits for sibling files
 * @param parallelism how many skills are read at the same time (1 = on the calling thread); the
 *     result is identical whatever the value
 * @param maxSkillFileBytes the largest SKILL.md read (sibling files are limited by {@code
 *     siblingLimits})
 */
public record LoaderOptions(
    boolean strict,
    int maxDepth,
    YamlLimits frontmatterLimits,
    YamlLimits siblingLimits,
    int parallelism,
    long maxSkillFileBytes) {

  public static final LoaderOptions DEFAULTS =
      new LoaderOptions(
          false,
          4,
          YamlLimits.FRONTMATTER,
          YamlLimits.SIBLING,
          1,
          SkillMdParser.DEFAULT_MAX_FILE_BYTES);

  public LoaderOptions {
    Objects.requireNonNull(frontmatterLimits, "frontmatterLimits");
    Objects.requireNonNull(siblingLimits, "siblingLimits");
    if (maxDepth < 0) {
      throw new IllegalArgumentException("maxDepth must be >= 0");
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1");
    }
    if (maxSkillFileBytes < 1) {
      throw new IllegalArgumentException("maxSkillFileBytes must be positive");
    }
  }

  /** Options with the default SKILL.md size limit. */
  public LoaderOptions(
      boolean strict,
      int maxDepth,
      YamlLimits frontmatterLimits,
      YamlLimits siblingLimits,
      int parallelism) {
    this(
        strict,
        maxDepth,
        frontmatterLimits,
        siblingLimits,
        parallelism,
        SkillMdParser.DEFAULT_MAX_FILE_BYTES);
  }

  /** Options that read skills one at a time. */
  public LoaderOptions(
      boolean strict, int maxDepth, YamlLimits frontmatterLimits, YamlLimits siblingLimits) {
    this(strict, maxDepth, frontmatterLimits, siblingLimits, 1);
  }

  public LoaderOptions withStrict(boolean value) {
    return new LoaderOptions(
        value, maxDepth, frontmatterLimits, siblingLimits, parallelism, maxSkillFileBytes);
  }

  public LoaderOptions withMaxDepth(int value) {
    return new LoaderOptions(
        strict, value, frontmatterLimits, siblingLimits, parallelism, maxSkillFileBytes);
  }

  public LoaderOptions withFrontmatterLimits(YamlLimits value) {
    return new LoaderOptions(
        strict, maxDepth, value, siblingLimits, parallelism, maxSkillFileBytes);
  }

  public LoaderOptions withMaxSkillFileBytes(long value) {
    return new LoaderOptions(
        strict, maxDepth, frontmatterLimits, siblingLimits, parallelism, value);
  }

  public LoaderOptions withParallelism(int value) {
    return new LoaderOptions(
        strict, maxDepth, frontmatterLimits, siblingLimits, value, maxSkillFileBytes);
  }
}
