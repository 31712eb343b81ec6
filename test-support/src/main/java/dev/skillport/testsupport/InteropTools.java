package dev.skillport.testsupport;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pinned interop tools a test drives: Node 22, the MCP conformance suites, the TypeScript SDK
 * clients, the MCP Inspector and skills-ref. {@code interop/interop.mjs} in the repository installs
 * each one from the npm registry into the interop cache on first use (concurrent builds are safe)
 * and finds it there offline afterwards; this class asks it for paths and builds the commands.
 *
 * <p>A tool is named {@code NAME[@VERSION]}: {@code node@22}, {@code conformance@0.1} (0.1.16),
 * {@code conformance@0.2} (0.2.0-alpha.12), {@code sdk@1} (TS SDK 1.x), {@code client@2} (TS SDK
 * 2.x), {@code inspector}, {@code skills-ref}, {@code everything} (the MCP reference server
 * {@code @modelcontextprotocol/server-everything} 2026.8.31, a stdio server bridge tests mount), or
 * any of them at an exact version.
 *
 * <p>The cache is {@code $SKILLPORT_INTEROP_CACHE}, else {@code
 * ${XDG_CACHE_HOME:-~/.cache}/skillport/interop} of the real user (system property {@code
 * skillport.user.home}, set by the build, since tests run with a home folder of their own). Only
 * the system {@code node} (18 or later) and {@code npm} are needed to bootstrap.
 */
public final class InteropTools {
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);
  private static final Map<String, Path> PATHS = new ConcurrentHashMap<>();
  private static final Map<String, Path> DIRS = new ConcurrentHashMap<>();

  private InteropTools() {}

  /** The repository's top folder: {@code skillport.repo}, else the nearest parent with interop/. */
  public static Path repository() {
    String configured = System.getProperty("skillport.repo");
    if (configured != null && Files.isRegularFile(Path.of(configured, "interop", "interop.mjs"))) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("interop/interop.mjs"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "interop/interop.mjs not found above " + Path.of("").toAbsolutePath());
  }

  /** The interop cache every tool is installed into. */
  public static Path cache() {
    String configured = System.getenv("SKILLPORT_INTEROP_CACHE");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath();
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("skillport.user.home", System.getProperty("user.home")))
                .resolve(".cache");
    return base.resolve("skillport").resolve("interop").toAbsolutePath();
  }

  /**
   * The environment for the installer and the tools: the cache, and npm's user configuration of the
   * real user (a registry mirror, a proxy) even though tests run with a home of their own.
   */
  public static Map<String, String> environment() {
    Map<String, String> env = new HashMap<>();
    env.put("SKILLPORT_INTEROP_CACHE", cache().toString());
    String realHome = System.getProperty("skillport.user.home");
    if (realHome != null && System.getenv("npm_config_userconfig") == null) {
      Path npmrc = Path.of(realHome, ".npmrc");
      if (Files.isRegularFile(npmrc)) {
        env.put("npm_config_userconfig", npmrc.toString());
      }
    }
    return env;
  }

  /**
   * The tool's entry, installed if needed: the Node binary for {@code node}, the program's main
   * script for a program, the package's {@code package.json} for a library.
   */
  public static Path path(String tool) {
    return PATHS.computeIfAbsent(tool, t -> ask("path", t));
  }

  /** The tool's install folder (holding its {@code node_modules}), installed if needed. */
  public static Path dir(String tool) {
    return DIRS.computeIfAbsent(tool, t -> ask("dir", t));
  }

  /** The Node 22 binary every tool runs on. */
  public static Path node() {
    return path("node@22");
  }

  /** {@code node22 ENTRY ARGS...}: runs a program tool (conformance, inspector). */
  public static List<String> command(String tool, String... args) {
    List<String> command = new ArrayList<>(List.of(node().toString(), path(tool).toString()));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * The official server conformance suite at {@code version} ({@code 0.1}, {@code 0.2} or exact)
   * against {@code url}, with the suite's own options ({@code --suite all}, {@code --scenario X}).
   * Its last line reads {@code Total: N passed, M failed}; it exits 1 on any failure.
   */
  public static List<String> conformance(String version, URI url, String... args) {
    List<String> all = new ArrayList<>(List.of("server", "--url", url.toString()));
    all.addAll(List.of(args));
    return command("conformance@" + version, all.toArray(String[]::new));
  }

  /**
   * {@code interop/smoke-client.mjs} on the TypeScript SDK {@code major} (1 or 2), with its own
   * options ({@code --url URL} or {@code -- COMMAND...}, {@code --call TOOL --args JSON}, ...). It
   * prints one JSON summary and exits 0 when every step worked.
   */
  public static List<String> smokeClient(int major, String... args) {
    String library =
        switch (major) {
          case 1 -> "sdk@1";
          case 2 -> "client@2";
          default -> throw new IllegalArgumentException("TS SDK " + major + ": use 1 or 2");
        };
    List<String> command =
        new ArrayList<>(
            List.of(
                node().toString(),
                repository().resolve("interop/smoke-client.mjs").toString(),
                "--sdk",
                Integer.toString(major),
                "--sdk-dir",
                dir(library).toString()));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * {@code node interop/fleet-client.mjs MODE --sdk-dir SDK ARGS...}: the TypeScript SDK 2.x client
   * of a fleet (tasks, cancels, input rounds as a token's caller), installed in {@code sdk}.
   */
  public static List<String> fleetClient(Path sdk, String mode, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                node().toString(),
                repository().resolve("interop/fleet-client.mjs").toString(),
                mode,
                "--sdk-dir",
                sdk.toString()));
    command.addAll(List.of(args));
    return command;
  }

  private static Path ask(String what, String tool) {
    ExternalCommand.Outcome outcome =
        ExternalCommand.of(
                "node", repository().resolve("interop/interop.mjs").toString(), what, tool)
            .environment(environment())
            .timeout(INSTALL_TIMEOUT)
            .run();
    if (outcome.exit() != 0) {
      throw new IllegalStateException(
          "interop.mjs "
              + what
              + " "
              + tool
              + " failed ("
              + outcome.describeExit()
              + "):\n"
              + outcome.stderr());
    }
    Path path = Path.of(outcome.stdout().strip());
    if (!Files.exists(path)) {
      throw new IllegalStateException("interop.mjs named a missing path for " + tool + ": " + path);
    }
    return path;
  }
}
