package dev.skillport.loader.discovery;

import dev.skillport.model.skill.SkillRoot;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * A skill folder found by discovery, not read yet.
 *
 * @param directory the skill folder (real path)
 * @param skillFile its {@code SKILL.md} or {@code skill.md}
 * @param root the configured root it was found under
 * @param rootPath the root's real path
 * @param rootOrder the root's index in the list given to the scanner (0 = highest priority)
 * @param lowercaseFileName whether the skill file is named {@code skill.md}
 * @param attributes the skill file's attributes as discovery saw them (links followed), so that
 *     reading it need not look again; null when not known
 */
public record DiscoveredSkill(
    Path directory,
    Path skillFile,
    SkillRoot root,
    Path rootPath,
    int rootOrder,
    boolean lowercaseFileName,
    BasicFileAttributes attributes) {
  public DiscoveredSkill {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(skillFile, "skillFile");
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(rootPath, "rootPath");
    if (rootOrder < 0) {
      throw new IllegalArgumentException("rootOrder must be >= 0");
    }
  }

  /** A found skill whose file's attributes are not known. */
  public DiscoveredSkill(
      Path directory,
      Path skillFile,
      SkillRoot root,
      Path rootPath,
      int rootOrder,
      boolean lowercaseFileName) {
    this(directory, skillFile, root, rootPath, rootOrder, lowercaseFileName, null);
  }

  // equals and hashCode are written out, with the meaning a record's generated ones have: a found
  // skill is a hash key of every load, and the generated methods are bootstrapped through method
  // handles at their first call, which a server start paid for (decision 0034).

  @Override
  public boolean equals(Object o) {
    return o instanceof DiscoveredSkill d
        && directory.equals(d.directory)
        && skillFile.equals(d.skillFile)
        && root.equals(d.root)
        && rootPath.equals(d.rootPath)
        && rootOrder == d.rootOrder
        && lowercaseFileName == d.lowercaseFileName
        && Objects.equals(attributes, d.attributes);
  }

  @Override
  public int hashCode() {
    int h = directory.hashCode();
    h = 31 * h + skillFile.hashCode();
    h = 31 * h + root.hashCode();
    h = 31 * h + rootPath.hashCode();
    h = 31 * h + rootOrder;
    h = 31 * h + Boolean.hashCode(lowercaseFileName);
    return 31 * h + Objects.hashCode(attributes);
  }
}
