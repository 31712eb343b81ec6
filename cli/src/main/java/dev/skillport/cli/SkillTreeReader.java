package dev.skillport.cli;

import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.loader.SkillRoot;
import java.io.PrintWriter;
import java.util.List;

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
      return loader.load(roots);
    } finally {
      spinner.stop();
    }
  }
}
