package dev.skillport.loader.yaml;

/** A 1-based line and column in a source file; 0 means unknown. */
public record YamlLocation(int line, int column) {
  public static final YamlLocation UNKNOWN = new YamlLocation(0, 0);

  public YamlLocation {
    if (line < 0 || column < 0) {
      throw new IllegalArgumentException("line and column must be >= 0");
    }
  }
}
