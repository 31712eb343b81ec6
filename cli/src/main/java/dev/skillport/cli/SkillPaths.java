package dev.skillport.cli;

import dev.skillport.loader.SkillRoots;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The {@code PATH…} arguments shared by the commands that read skill folders. */
final class SkillPaths {
  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "PATH",
      description = {
        "A skill folder (holding SKILL.md), its SKILL.md, or a tree of skill folders.",
        "Without PATH: the roots configured in SKILLPORT_SKILL_PATHS, DCC_MCP_SKILL_PATHS,"
            + " SKILLPORT_TEAM_SKILL_PATHS and ~/.skillport/skills."
      })
  private List<Path> paths = new ArrayList<>();

  /**
   * The paths as skill roots of scope {@code repo}, in the order given, relative ones resolved
   * against the working directory; without paths, the roots the environment configures. A path that
   * does not exist is a usage error: a misspelt path must not pass validation as "no problems
   * found".
   */
  List<SkillRoot> roots(CliEnvironment env) {
    if (paths.isEmpty()) {
      List<SkillRoot> configured =
          SkillRoots.resolve(List.of(), env.variables(), env.userHome(), null, List.of());
      if (configured.isEmpty()) {
        throw new ParameterException(
            spec.commandLine(),
            "Give a PATH, or configure skill roots with "
                + SkillRoots.ENV_PATHS
                + " or "
                + SkillRoots.ENV_TEAM_PATHS);
      }
      return configured;
    }
    List<SkillRoot> roots = new ArrayList<>();
    for (Path given : paths) {
      Path path = env.workingDirectory().resolve(given).normalize();
      if (Files.isRegularFile(path) && isSkillFile(path)) {
        path = path.getParent();
      }
      if (!Files.isDirectory(path)) {
        throw new ParameterException(
            spec.commandLine(),
            Files.exists(path)
                ? "Not a skill folder or SKILL.md: " + given
                : "No such file or directory: " + given);
      }
      roots.add(new SkillRoot(path, Scope.REPO, "command line"));
    }
    return roots;
  }

  private static boolean isSkillFile(Path path) {
    String name = String.valueOf(path.getFileName());
    return name.equals("SKILL.md") || name.equals("skill.md");
  }
}
