package dev.skillport.plugins;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Where plugin jars are looked for: command line first, then the environment, then the user's. */
public final class PluginFolders {
  /** Environment variable holding plugin folders, separated like {@code PATH}. */
  public static final String ENV = "SKILLPORT_PLUGINS";

  private PluginFolders() {}

  /**
   * The plugin folders in search order, duplicates removed: each {@code --plugins DIR}, each entry
   * of {@value #ENV}, then {@code ~/.skillport/plugins}.
   */
  public static List<Path> resolve(List<Path> cli, Map<String, String> env, Path userHome) {
    Set<Path> folders = new LinkedHashSet<>();
    cli.forEach(p -> folders.add(p.toAbsolutePath().normalize()));
    String fromEnv = env.get(ENV);
    if (fromEnv != null) {
      for (String part : fromEnv.split(File.pathSeparator)) {
        if (!part.isBlank()) {
          folders.add(Path.of(part.trim()).toAbsolutePath().normalize());
        }
      }
    }
    if (userHome != null) {
      folders.add(userHome.resolve(".skillport").resolve("plugins").toAbsolutePath().normalize());
    }
    return new ArrayList<>(folders);
  }
}
