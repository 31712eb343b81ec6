package dev.skillport.loader.sibling;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** What external-deps checks ask of the machine: environment variables and the program PATH. */
interface HostEnvironment {

  /** Whether the environment variable {@code name} is set to a non-empty value. */
  boolean hasEnv(String name);

  /** Whether an executable {@code program} is found on the PATH. */
  boolean onPath(String program);

  /**
   * This process's environment and PATH. The environment cannot change while the process runs, so
   * one copy serves every skill instead of one copy per skill.
   */
  static HostEnvironment system() {
    return ProcessEnvironment.INSTANCE;
  }

  /**
   * An environment given as a map; {@code PATH} (and {@code PATHEXT} on Windows) are read from it.
   */
  static HostEnvironment of(Map<String, String> env) {
    Map<String, String> copy = Map.copyOf(env);
    return new HostEnvironment() {
      @Override
      public boolean hasEnv(String name) {
        String v = copy.get(name);
        return v != null && !v.isEmpty();
      }

      @Override
      public boolean onPath(String program) {
        Objects.requireNonNull(program, "program");
        if (program.isBlank() || program.contains("/") || program.contains("\\")) {
          return false;
        }
        String path = copy.getOrDefault("PATH", copy.getOrDefault("Path", ""));
        boolean windows = File.pathSeparatorChar == ';';
        String[] suffixes =
            windows
                ? ("" + ";" + copy.getOrDefault("PATHEXT", ".EXE;.BAT;.CMD;.COM"))
                    .toLowerCase(Locale.ROOT)
                    .split(";", -1)
                : new String[] {""};
        for (String dir : path.split(File.pathSeparator)) {
          if (dir.isBlank()) {
            continue;
          }
          for (String suffix : suffixes) {
            try {
              Path candidate = Path.of(dir, program + suffix);
              if (Files.isRegularFile(candidate) && (windows || Files.isExecutable(candidate))) {
                return true;
              }
            } catch (InvalidPathException e) {
              // A malformed PATH entry simply holds nothing.
            }
          }
        }
        return false;
      }
    };
  }

  /** Holds {@link #system()}'s copy, made on first use. */
  final class ProcessEnvironment {
    static final HostEnvironment INSTANCE = of(System.getenv());

    private ProcessEnvironment() {}
  }
}
