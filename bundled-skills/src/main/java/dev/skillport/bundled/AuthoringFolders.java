package dev.skillport.bundled;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The folders the {@code skill-authoring} tools may read and write in: by default the server's
 * skill roots (never the bundled ones), or the folders its operator names. A path the tools are
 * given must lie inside one of them once links are resolved; outside, they act on nothing and say
 * the same whether or not the path exists, so they reveal nothing about the rest of the disk.
 *
 * @param folders absolute, normalized; the first one is where relative paths start
 */
public record AuthoringFolders(List<Path> folders) {
  /** No folder: every path is refused. */
  public static final AuthoringFolders NONE = new AuthoringFolders(List.of());

  public AuthoringFolders {
    List<Path> normalized = new ArrayList<>(folders.size());
    for (Path folder : folders) {
      normalized.add(folder.toAbsolutePath().normalize());
    }
    folders = List.copyOf(normalized);
  }

  /** The folders, as the tools' refusals name them. */
  public String describe() {
    return folders.isEmpty()
        ? "none: start the server with --skills DIR or --authoring-dir DIR"
        : folders.stream().map(Path::toString).collect(Collectors.joining(", "));
  }

  /**
   * The path {@code given} names (relative to the first folder when not absolute) when it lies
   * inside one of the folders, links resolved as far as the path exists; empty otherwise.
   */
  public Optional<Path> confine(String given) {
    if (folders.isEmpty() || given == null || given.isBlank() || given.indexOf('\0') >= 0) {
      return Optional.empty();
    }
    Path path;
    try {
      path = folders.get(0).resolve(given.strip()).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    Path real = realAsFarAsItExists(path);
    if (real == null) {
      return Optional.empty();
    }
    for (Path folder : folders) {
      Path realFolder = realAsFarAsItExists(folder);
      if (realFolder != null && real.startsWith(realFolder)) {
        return Optional.of(path);
      }
    }
    return Optional.empty();
  }

  /**
   * The real path of the deepest existing ancestor of {@code path} (itself included), with the
   * names below it appended; null when not even the file system root resolves.
   */
  private static Path realAsFarAsItExists(Path path) {
    Path existing = path;
    List<Path> rest = new ArrayList<>();
    while (existing != null) {
      try {
        Path real = existing.toRealPath();
        for (int i = rest.size() - 1; i >= 0; i--) {
          real = real.resolve(rest.get(i));
        }
        return real;
      } catch (IOException | SecurityException e) {
        if (existing.getFileName() != null) {
          rest.add(existing.getFileName());
        }
        existing = existing.getParent();
      }
    }
    return null;
  }
}
