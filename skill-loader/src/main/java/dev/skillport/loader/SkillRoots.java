package dev.skillport.loader;

import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The skill roots named by configuration, highest priority first.
 *
 * <ol>
 *   <li>command-line {@code --skills [SCOPE=]DIR} specs, in the order given (scope {@code repo}
 *       unless prefixed, e.g. {@code team=/x}, {@code admin=/y});
 *   <li>{@code SKILLPORT_SKILL_PATHS} (repo);
 *   <li>{@code DCC_MCP_<APP>_SKILL_PATHS} for the host product (upper-cased, {@code -} → {@code
 *       _}), then {@code DCC_MCP_SKILL_PATHS} (repo);
 *   <li>{@code SKILLPORT_TEAM_SKILL_PATHS} (team);
 *   <li>{@code ~/.skillport/skills} (user), only when it exists: it is a default, not something
 *       configured, so its absence is not worth a warning;
 *   <li>the extra roots given by the caller (plugin and bundled skills, normally scope system).
 * </ol>
 *
 * <p>Path lists are split on the platform path separator and empty entries are ignored. A spec's
 * text before the first {@code =} is a scope only when it names one; otherwise the whole spec is
 * the path, so a directory whose name contains {@code =} still works. A leading {@code ~/} means
 * the user home. Whether each path exists is checked by discovery, which reports it.
 */
public final class SkillRoots {
  public static final String ENV_PATHS = "SKILLPORT_SKILL_PATHS";
  public static final String ENV_TEAM_PATHS = "SKILLPORT_TEAM_SKILL_PATHS";
  public static final String ENV_DCC_PATHS = "DCC_MCP_SKILL_PATHS";
  public static final String CLI_OPTION = "--skills";

  private SkillRoots() {}

  /**
   * Builds the root list from explicit inputs.
   *
   * @param cliSpecs the values of each {@code --skills} option, in order
   * @param env the environment variables
   * @param userHome the user's home directory, or null when unknown
   * @param appName the host product ({@code maya}, {@code blender}…), or null/blank for none
   * @param extraRoots plugin and bundled roots, lowest priority, kept as given
   */
  public static List<SkillRoot> resolve(
      List<String> cliSpecs,
      Map<String, String> env,
      Path userHome,
      String appName,
      List<SkillRoot> extraRoots) {
    Objects.requireNonNull(cliSpecs, "cliSpecs");
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(extraRoots, "extraRoots");
    List<SkillRoot> roots = new ArrayList<>();
    for (String spec : cliSpecs) {
      parseSpec(spec, userHome).ifPresent(roots::add);
    }
    addList(roots, env.get(ENV_PATHS), Scope.REPO, ENV_PATHS, userHome);
    String appVariable = appVariable(appName);
    if (appVariable != null) {
      addList(roots, env.get(appVariable), Scope.REPO, appVariable, userHome);
    }
    addList(roots, env.get(ENV_DCC_PATHS), Scope.REPO, ENV_DCC_PATHS, userHome);
    addList(roots, env.get(ENV_TEAM_PATHS), Scope.TEAM, ENV_TEAM_PATHS, userHome);
    if (userHome != null) {
      Path user = userHome.resolve(".skillport").resolve("skills");
      if (Files.isDirectory(user)) {
        roots.add(new SkillRoot(user, Scope.USER, "~/.skillport/skills"));
      }
    }
    roots.addAll(extraRoots);
    return List.copyOf(roots);
  }

  /** {@link #resolve} with the real environment and {@code user.home}. */
  public static List<SkillRoot> fromEnvironment(
      List<String> cliSpecs, String appName, List<SkillRoot> extraRoots) {
    String home = System.getProperty("user.home");
    return resolve(
        cliSpecs,
        System.getenv(),
        home == null || home.isBlank() ? null : Path.of(home),
        appName,
        extraRoots);
  }

  /** The upstream per-product variable, e.g. {@code DCC_MCP_MAYA_SKILL_PATHS}; null for none. */
  static String appVariable(String appName) {
    if (appName == null || appName.isBlank()) {
      return null;
    }
    return "DCC_MCP_" + appName.strip().toUpperCase(Locale.ROOT).replace('-', '_') + "_SKILL_PATHS";
  }

  /** Parses one {@code [SCOPE=]DIR} spec; empty for a blank spec or an unusable path. */
  static Optional<SkillRoot> parseSpec(String spec, Path userHome) {
    if (spec == null || spec.isBlank()) {
      return Optional.empty();
    }
    Scope scope = Scope.REPO;
    String dir = spec.strip();
    int eq = dir.indexOf('=');
    if (eq > 0) {
      Optional<Scope> named = Scope.parse(dir.substring(0, eq));
      if (named.isPresent()) {
        scope = named.get();
        dir = dir.substring(eq + 1).strip();
      }
    }
    Scope chosen = scope;
    return path(dir, userHome).map(p -> new SkillRoot(p, chosen, CLI_OPTION));
  }

  private static void addList(
      List<SkillRoot> into, String value, Scope scope, String origin, Path userHome) {
    if (value == null || value.isBlank()) {
      return;
    }
    for (String entry : value.split(File.pathSeparator, -1)) {
      path(entry.strip(), userHome).ifPresent(p -> into.add(new SkillRoot(p, scope, origin)));
    }
  }

  private static Optional<Path> path(String text, Path userHome) {
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      if (userHome != null && (text.equals("~") || text.startsWith("~/"))) {
        return Optional.of(
            text.length() <= 2 ? userHome : userHome.resolve(text.substring(2)).normalize());
      }
      return Optional.of(Path.of(text));
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }
}
