package dev.skillport.loader;

import java.util.List;
import java.util.Objects;

/**
 * Turns skill roots into skills plus diagnostics. Thread-safe; never throws for bad input (only for
 * programming errors such as a null argument).
 */
public final class SkillLoader {
  private final LoaderOptions options;

  public SkillLoader(LoaderOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  public LoaderOptions options() {
    return options;
  }

  /**
   * Discovers, reads, validates and resolves every skill under {@code roots} (highest priority
   * first).
   */
  public LoadResult load(List<SkillRoot> roots) {
    Objects.requireNonNull(roots, "roots");
    return new LoadResult(List.of(), List.of());
  }
}
