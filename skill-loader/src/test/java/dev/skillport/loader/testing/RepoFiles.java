package dev.skillport.loader.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Files of the repository that tests use as a corpus (fixtures, samples, bundled skills). */
public final class RepoFiles {
  private RepoFiles() {}

  /**
   * The regular files under each existing root that {@code wanted} accepts, outside build folders,
   * sorted within each root; roots are taken in order.
   */
  public static List<Path> under(List<Path> roots, Predicate<Path> wanted) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(root)) {
        walk.filter(Files::isRegularFile)
            .filter(p -> !p.toString().contains("/target"))
            .filter(wanted)
            .sorted()
            .forEach(out::add);
      }
    }
    return out;
  }
}
