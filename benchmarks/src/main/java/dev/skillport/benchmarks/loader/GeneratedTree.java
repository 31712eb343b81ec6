package dev.skillport.benchmarks.loader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A skill tree written by {@link SkillTreeGenerator}.
 *
 * @param root the folder to give the loader as a skill root
 * @param skillNames the names of the generated skills, in the order they were written
 */
public record GeneratedTree(Path root, List<String> skillNames) {
  public GeneratedTree {
    Objects.requireNonNull(root, "root");
    skillNames = List.copyOf(skillNames);
  }

  public int skillCount() {
    return skillNames.size();
  }

  /** Deletes the root and everything below it. */
  public void delete() throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      // Deepest first, so every folder is empty when its turn comes.
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
