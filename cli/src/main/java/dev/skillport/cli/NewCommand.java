package dev.skillport.cli;

import dev.skillport.sdk.scaffold.SkillScaffold;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code skillport new}: creates starting files for authors; {@code new skill} a skill folder. */
@Command(
    name = "new",
    description = "Create a new skill folder from a template.",
    subcommands = {NewCommand.SkillCommand.class})
final class NewCommand implements Callable<Integer> {
  @ParentCommand private SkillportCommand parent;

  @Spec private CommandSpec spec;

  /** Without {@code skill} there is nothing to create: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand");
  }

  /** {@code skillport new skill NAME [--dir DIR]}. */
  @Command(
      name = "skill",
      description =
          "Write DIR/NAME with SKILL.md, tools.yaml and scripts/hello.py; it passes"
              + " validate --strict with no diagnostics.",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:the folder was created",
        "2:invalid name, the folder exists already, or another usage error",
        "3:internal failure"
      })
  static final class SkillCommand implements Callable<Integer> {
    @ParentCommand private NewCommand parent;

    @Parameters(
        index = "0",
        paramLabel = "NAME",
        description = "The skill name: lowercase letters, digits and single hyphens.")
    private String name;

    @Option(
        names = "--dir",
        paramLabel = "DIR",
        description = "Folder to create the skill in (default: the current directory).")
    private Path dir;

    @Override
    public Integer call() throws IOException {
      SkillportCommand root = parent.parent;
      PrintWriter err = root.output().stderr();
      if (!SkillScaffold.isValidName(name)) {
        err.println(
            "skillport new skill: invalid skill name '"
                + name
                + "': use "
                + SkillScaffold.nameRule());
        return SkillportCommand.EXIT_USAGE;
      }
      Path base = root.environment().workingDirectory();
      Path target = dir == null ? base : base.resolve(dir);
      Path created;
      try {
        created = SkillScaffold.create(target, name);
      } catch (FileAlreadyExistsException e) {
        err.println(
            "skillport new skill: "
                + root.displayPaths().show(target.resolve(name))
                + " exists already; choose another name or --dir");
        return SkillportCommand.EXIT_USAGE;
      }
      PrintWriter out = root.output().stdout();
      String shown = root.displayPaths().show(created);
      out.println("Created skill " + name + " in " + shown);
      for (String file : SkillScaffold.FILES) {
        out.println("  " + file);
      }
      out.println("Next: skillport validate --strict " + shown);
      return SkillportCommand.EXIT_OK;
    }
  }
}
