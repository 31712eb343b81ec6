package dev.skillport.runtime;

import dev.skillport.model.skill.PathPlace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The operator's side of path arguments: the places a tool's {@code paths:} declaration may name
 * besides its own skill folder and the client's roots. Folders are kept as real paths (links
 * resolved), so a check compares like with like.
 *
 * @param workdir the server's working directory ({@code workdir}), or null when it admits nothing
 * @param allowed the folders {@code serve --allow-path [NAME=]DIR} allows ({@code allowed}, {@code
 *     allowed:NAME})
 */
public record PathRules(Path workdir, List<Allowed> allowed) {
  /** No working directory and no allowed folder: only the skill folder and roots can admit. */
  public static final PathRules NONE = new PathRules(null, List.of());

  /**
   * One allowed folder.
   *
   * @param name the operator's name for it (lowercase letters, digits, {@code _}, {@code -}), or
   *     null when it has none and answers only to {@code allowed}
   * @param folder its real path
   */
  public record Allowed(String name, Path folder) {
    public Allowed {
      Objects.requireNonNull(folder, "folder");
      if (name != null && !PathPlace.NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "'" + name + "' is not a folder name: use lowercase letters, digits, '_' and '-'");
      }
    }
  }

  public PathRules {
    allowed = List.copyOf(Objects.requireNonNull(allowed, "allowed"));
  }

  /**
   * Rules with {@code workdir} and the folders {@code --allow-path} gave ({@code [NAME=]DIR}, a
   * relative DIR against {@code workdir}); each must be an existing folder.
   *
   * @throws IllegalArgumentException naming the entry that is not a folder or not well formed
   */
  public static PathRules of(Path workdir, List<String> allowPaths) {
    Path base = workdir.toAbsolutePath();
    List<Allowed> folders =
        allowPaths.stream()
            .map(
                entry -> {
                  int eq = entry.indexOf('=');
                  String name = eq > 0 ? entry.substring(0, eq) : null;
                  String dir = eq > 0 ? entry.substring(eq + 1) : entry;
                  if (dir.isBlank()) {
                    throw new IllegalArgumentException(
                        "--allow-path " + entry + " names no folder: give [NAME=]DIR");
                  }
                  return new Allowed(name, realFolder(base.resolve(dir), "--allow-path " + entry));
                })
            .toList();
    long named = folders.stream().map(Allowed::name).filter(Objects::nonNull).count();
    long distinct = folders.stream().map(Allowed::name).filter(Objects::nonNull).distinct().count();
    if (named != distinct) {
      throw new IllegalArgumentException("--allow-path gives one NAME to two folders");
    }
    return new PathRules(realFolder(base, "the working directory"), folders);
  }

  private static Path realFolder(Path dir, String what) {
    try {
      Path real = dir.toRealPath();
      if (!Files.isDirectory(real)) {
        throw new IllegalArgumentException(what + ": " + dir + " is not a folder");
      }
      return real;
    } catch (IOException e) {
      throw new IllegalArgumentException(what + ": " + dir + " is not an existing folder", e);
    }
  }
}
