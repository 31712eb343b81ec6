package dev.skillport.cli;

import dev.skillport.api.diagnostic.Severity;
import dev.skillport.bundled.AuthoringHandlers;
import dev.skillport.bundled.DiagnosticsHandlers;
import dev.skillport.loader.HandlerCheck;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.loader.SkillRoot;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.server.plugins.PluginFolders;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Runs the skill loader for a command, with a spinner on stderr when the read is slow. */
final class SkillTreeReader {
  private final CliEnvironment environment;
  private final PrintWriter err;

  SkillTreeReader(CliEnvironment environment, PrintWriter err) {
    this.environment = environment;
    this.err = err;
  }

  LoadResult read(List<SkillRoot> roots, boolean strict) {
    SkillLoader loader = new SkillLoader(LoaderOptions.DEFAULTS.withStrict(strict));
    ProgressSpinner spinner =
        ProgressSpinner.start(
            err, "reading skills...", environment.progressDelay(), environment.progressAllowed());
    try {
      return handlerCheck(strict).apply(loader.load(roots));
    } finally {
      spinner.stop();
    }
  }

  /**
   * The check of the handlers tools name against those this command knows: the ones built in and on
   * the class path. It starts no plugins, so while plugin jars wait in the folders {@code serve}
   * searches by default, a handler it does not know is a warning (a plugin may register it), an
   * error in strict mode; with none there, it is an error, as {@code serve} would find it.
   */
  private HandlerCheck handlerCheck(boolean strict) {
    Set<String> known =
        new HashSet<>(HandlerRegistry.provided(getClass().getClassLoader()).keySet());
    known.addAll(DiagnosticsHandlers.IDS);
    known.addAll(AuthoringHandlers.IDS);
    boolean pluginJars =
        PluginFolders.resolve(List.of(), environment.variables(), environment.userHome()).stream()
            .anyMatch(SkillTreeReader::holdsJars);
    return new HandlerCheck(
        known::contains, strict || !pluginJars ? Severity.ERROR : Severity.WARNING);
  }

  private static boolean holdsJars(Path folder) {
    if (!Files.isDirectory(folder)) {
      return false;
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(".jar"));
    } catch (IOException e) {
      return false;
    }
  }
}
