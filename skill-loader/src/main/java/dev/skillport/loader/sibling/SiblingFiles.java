package dev.skillport.loader.sibling;

/** Entry point for reading all of a skill's sibling files. */
public final class SiblingFiles {
  private SiblingFiles() {}

  /**
   * Reads every sibling file the skill's extensions point at, binds its tools to code, and reports
   * problems to {@code ctx.diagnostics()}. Never throws for bad input.
   */
  public static SkillContents read(SiblingContext ctx) {
    return SkillContents.EMPTY;
  }
}
