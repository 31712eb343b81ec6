package dev.skillport.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes real skill folders for tests. */
final class SkillFolders {
  private SkillFolders() {}

  /** A skill folder {@code parent/name} whose SKILL.md holds {@code frontmatter} and a body. */
  static Path write(Path parent, String name, String frontmatter) {
    try {
      Path dir = Files.createDirectories(parent.resolve(name));
      Files.writeString(dir.resolve("SKILL.md"), "---\n" + frontmatter + "---\n# " + name + "\n");
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A valid minimal skill. */
  static Path valid(Path parent, String name) {
    return write(parent, name, "name: " + name + "\ndescription: Does " + name + " things.\n");
  }

  /** A skill without a description: an error. */
  static Path withoutDescription(Path parent, String name) {
    return write(parent, name, "name: " + name + "\n");
  }

  /** A skill with the top-level key {@code tags} on line 4: a warning, an error in strict mode. */
  static Path withUnknownKey(Path parent, String name) {
    return write(parent, name, "name: " + name + "\ndescription: Has a stray key.\ntags: [a, b]\n");
  }
}
