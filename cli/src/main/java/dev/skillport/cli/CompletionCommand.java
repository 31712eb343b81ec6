package dev.skillport.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code skillport completion SHELL}: a completion script for the shell, made from the same command
 * model that parses the arguments, so it never lists a flag the command does not take.
 */
@Command(
    name = "completion",
    addMethodSubcommands = false,
    description = {
      "Print a shell completion script for bash, zsh or fish.",
      "bash: source <(skillport completion bash); zsh: the same line in ~/.zshrc;"
          + " fish: skillport completion fish > ~/.config/fish/completions/skillport.fish"
    })
final class CompletionCommand implements Callable<Integer> {
  /** The shells a script is made for. */
  enum Shell {
    /** picocli's script, which also loads zsh's bash-completion layer when zsh sources it. */
    BASH,
    ZSH,
    /** fish's {@code complete} lines, one per subcommand and option. */
    FISH
  }

  @ParentCommand private SkillportCommand parent;

  @Parameters(
      paramLabel = "SHELL",
      completionCandidates = ShellNames.class,
      description = "bash, zsh or fish.")
  private Shell shell;

  /** The shells as people type them, for the completion of this command itself. */
  static final class ShellNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(Shell.values()).map(s -> s.name().toLowerCase(Locale.ROOT)).iterator();
    }
  }

  @Override
  public Integer call() {
    CommandLine all = SkillportCommand.commandLine(parent.output(), parent.environment());
    PrintWriter out = parent.output().stdout();
    switch (shell) {
      case BASH, ZSH -> out.print(AutoComplete.bash("skillport", all));
      case FISH -> fish(all.getCommandSpec(), List.of()).forEach(out::println);
    }
    out.flush();
    return SkillportCommand.EXIT_OK;
  }

  /** The fish lines for {@code spec}'s subcommands and options, reached through {@code path}. */
  static List<String> fish(CommandSpec spec, List<String> path) {
    List<String> lines = new ArrayList<>();
    if (path.isEmpty()) {
      lines.add("# skillport completion for fish");
    }
    String here =
        path.isEmpty()
            ? "__fish_use_subcommand"
            : "'__fish_seen_subcommand_from " + path.get(path.size() - 1) + "'";
    spec.subcommands()
        .forEach(
            (name, sub) ->
                lines.add(
                    "complete -c skillport -n "
                        + here
                        + " -a "
                        + name
                        + " -d "
                        + quoted(first(sub.getCommandSpec().usageMessage().description()))));
    if (!path.isEmpty()) {
      for (OptionSpec option : spec.options()) {
        StringBuilder line = new StringBuilder("complete -c skillport -n ").append(here);
        for (String name : option.names()) {
          line.append(
              name.startsWith("--") ? " -l " + name.substring(2) : " -s " + name.substring(1));
        }
        if (option.arity().max() > 0) {
          line.append(" -r");
          Iterable<String> candidates = option.completionCandidates();
          if (candidates != null) {
            List<String> values = new ArrayList<>();
            candidates.forEach(v -> values.add(v.toLowerCase(Locale.ROOT)));
            line.append(" -a ").append(quoted(String.join(" ", values)));
          }
        }
        line.append(" -d ").append(quoted(first(option.description())));
        lines.add(line.toString());
      }
    }
    spec.subcommands()
        .forEach(
            (name, sub) -> {
              List<String> deeper = new ArrayList<>(path);
              deeper.add(name);
              lines.addAll(fish(sub.getCommandSpec(), deeper));
            });
    return lines;
  }

  private static String first(String[] description) {
    return description.length == 0 ? "" : description[0];
  }

  /** A fish single-quoted word: only a quote and a backslash need escaping there. */
  private static String quoted(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
