package dev.skillport.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Shows paths as a person typed them: relative to the working directory when they lie under it,
 * absolute otherwise. The loader may report a real (link-resolved) path, so both forms of the
 * working directory are tried.
 */
final class DisplayPaths {
  private final Path workingDirectory;
  private final Path realWorkingDirectory;

  DisplayPaths(Path workingDirectory) {
    this.workingDirectory = Objects.requireNonNull(workingDirectory).toAbsolutePath().normalize();
    this.realWorkingDirectory = canonical(this.workingDirectory);
  }

  String show(Path path) {
    Path abs = path.toAbsolutePath().normalize();
    for (Path base : new Path[] {workingDirectory, realWorkingDirectory}) {
      if (abs.startsWith(base)) {
        String relative = base.relativize(abs).toString();
        return relative.isEmpty() ? "." : relative;
      }
    }
    return abs.toString();
  }

  /** The real path when it exists, else the absolute normalized one; for comparing locations. */
  static Path canonical(Path path) {
    Path abs = path.toAbsolutePath().normalize();
    try {
      return abs.toRealPath();
    } catch (IOException e) {
      return abs;
    }
  }
}
