package dev.skillport.cli;

import dev.skillport.bundled.AuthoringHandlers;
import dev.skillport.bundled.DiagnosticsHandlers;
import dev.skillport.loader.HandlerCheck;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.plugins.PluginFolders;
import dev.skillport.runtime.HandlerRegistry;
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
  private static final HandlerCheck HANDLERS = builtInHandlers();

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
      LoadResult loaded = loader.load(roots);
      return pluginJarsWaiting() ? loaded : HANDLERS.apply(loaded);
    } finally {
      spinner.stop();
    }
  }

  /**
   * Whether plugin jars wait in the folders {@code serve} searches by default. This command starts
   * no plugins (that would start their host adapters), so with jars there it cannot know their
   * handlers and leaves the check to {@code serve}; with none, the handlers it knows are all {@code
   * serve} would have, and a skill naming another is skipped as {@code serve} would skip it.
   */
  private boolean pluginJarsWaiting() {
    return PluginFolders.resolve(List.of(), environment.variables(), environment.userHome())
        .stream()
        .anyMatch(SkillTreeReader::holdsJars);
  }

  /** The handlers built in and on the class path: those of a {@code serve} without plugins. */
  private static HandlerCheck builtInHandlers() {
    Set<String> known =
        new HashSet<>(HandlerRegistry.provided(SkillTreeReader.class.getClassLoader()).keySet());
    known.addAll(DiagnosticsHandlers.IDS);
    known.addAll(AuthoringHandlers.IDS);
    return new HandlerCheck(Set.copyOf(known)::contains, Severity.ERROR);
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
