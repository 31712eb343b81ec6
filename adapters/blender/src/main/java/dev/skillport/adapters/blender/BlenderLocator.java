package dev.skillport.adapters.blender;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the Blender executable (the {@code executable} setting, else {@value #ENV}, else {@code
 * blender} on {@code PATH}) and checks that it is Blender by running {@code -b --version}, which
 * prints the version and exits without opening a window.
 */
final class BlenderLocator {
  /** Environment variable naming the Blender executable. */
  static final String ENV = "SKILLPORT_BLENDER";

  /** The oldest Blender whose Python API the host loop and the shipped skill use. */
  static final int[] MINIMUM = {2, 93};

  private static final Pattern VERSION =
      Pattern.compile("^Blender (\\d+)\\.(\\d+)(?:\\.(\\d+))?", Pattern.MULTILINE);
  private static final int MAX_OUTPUT = 64 * 1024;

  private final Map<String, String> env;
  private final Duration timeout;

  /**
   * @param env the environment to read {@value #ENV} and {@code PATH} from
   * @param timeout how long {@code --version} may take
   */
  BlenderLocator(Map<String, String> env, Duration timeout) {
    this.env = Map.copyOf(env);
    this.timeout = timeout;
  }

  /**
   * The Blender to use.
   *
   * @param configured the {@code executable} setting ({@code --blender}), or {@code null}
   * @throws BlenderUnavailableException when none is found or the one named is not Blender
   */
  BlenderInstall locate(String configured) throws BlenderUnavailableException {
    if (configured != null && !configured.isBlank()) {
      return verify(named(configured.strip(), "--blender"), "--blender");
    }
    String fromEnv = env.get(ENV);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return verify(named(fromEnv.strip(), ENV), ENV);
    }
    Optional<Path> onPath = onPath(isWindows() ? "blender.exe" : "blender");
    if (onPath.isPresent()) {
      return verify(onPath.get(), "PATH");
    }
    throw new BlenderUnavailableException(
        "Blender was not found: no --blender PATH was given, "
            + ENV
            + " is not set and no 'blender' is on PATH; install Blender (Debian and Ubuntu:"
            + " apt-get install blender) or pass --blender /path/to/blender");
  }

  /** A setting's value: a path, or a bare program name looked up on {@code PATH}. */
  private Path named(String value, String source) throws BlenderUnavailableException {
    Path path;
    try {
      path = Path.of(value);
    } catch (InvalidPathException e) {
      throw new BlenderUnavailableException(
          "'" + value + "' (from " + source + ") is not a valid path: " + e.getMessage());
    }
    if (path.getNameCount() == 1 && !path.isAbsolute() && !Files.exists(path)) {
      return onPath(value).orElse(path);
    }
    return path;
  }

  private Optional<Path> onPath(String program) {
    String path = env.getOrDefault("PATH", env.getOrDefault("Path", ""));
    for (String dir : path.split(Pattern.quote(File.pathSeparator))) {
      if (dir.isBlank()) {
        continue;
      }
      try {
        Path candidate = Path.of(dir, program);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      } catch (InvalidPathException e) {
        // An entry that is not a path cannot hold Blender.
      }
    }
    return Optional.empty();
  }

  private BlenderInstall verify(Path given, String source) throws BlenderUnavailableException {
    Path path = given.toAbsolutePath().normalize();
    if (Files.isDirectory(path) && path.getFileName().toString().endsWith(".app")) {
      path = path.resolve("Contents").resolve("MacOS").resolve("Blender"); // a macOS app bundle
    }
    String named = "'" + path + "' (from " + source + ")";
    if (!Files.exists(path)) {
      throw new BlenderUnavailableException(named + " does not exist");
    }
    if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
      throw new BlenderUnavailableException(named + " is not an executable file");
    }
    Answer answer = askVersion(path, named);
    Matcher m = VERSION.matcher(answer.output());
    if (!m.find()) {
      throw new BlenderUnavailableException(
          named
              + " is not Blender: '-b --version' printed "
              + quoteFirstLine(answer.output())
              + " and exit code "
              + answer.exitCode());
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    String version = m.group(0).substring("Blender ".length());
    if (major < MINIMUM[0] || (major == MINIMUM[0] && minor < MINIMUM[1])) {
      throw new BlenderUnavailableException(
          named
              + " is Blender "
              + version
              + "; the adapter needs Blender "
              + MINIMUM[0]
              + "."
              + MINIMUM[1]
              + " or later");
    }
    return new BlenderInstall(path, version, source);
  }

  private record Answer(String output, int exitCode) {}

  private Answer askVersion(Path path, String named) throws BlenderUnavailableException {
    Process process;
    try {
      process =
          new ProcessBuilder(List.of(path.toString(), "-b", "--version"))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new BlenderUnavailableException(named + " cannot be run: " + e.getMessage(), e);
    }
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(() -> readCapped(process.getInputStream()));
    try {
      process.getOutputStream().close();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new BlenderUnavailableException(
            named
                + " did not answer '-b --version' within "
                + timeout.toSeconds()
                + " s; is it Blender?");
      }
      return new Answer(output.get(5, TimeUnit.SECONDS), process.exitValue());
    } catch (IOException | ExecutionException | TimeoutException e) {
      throw new BlenderUnavailableException(
          named + " could not be asked for its version: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BlenderUnavailableException("interrupted while checking " + named, e);
    } finally {
      if (process.isAlive()) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    }
  }

  private static String readCapped(InputStream in) {
    try (in) {
      byte[] bytes = in.readNBytes(MAX_OUTPUT);
      in.transferTo(OutputStream.nullOutputStream());
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static String quoteFirstLine(String output) {
    List<String> lines = new ArrayList<>(output.strip().lines().toList());
    if (lines.isEmpty()) {
      return "nothing";
    }
    String first = lines.get(0);
    return "'" + (first.length() > 200 ? first.substring(0, 200) + "…" : first) + "'";
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
  }
}
