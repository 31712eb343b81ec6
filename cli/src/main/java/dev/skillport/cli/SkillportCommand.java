package dev.skillport.cli;

import dev.skillport.model.skill.SkillRoot;
import dev.skillport.runtime.secrets.Redactor;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code skillport} top-level command. Subcommands reach the output channels and the loader
 * through it, so one {@link #commandLine} call wires a whole run.
 */
@Command(
    name = "skillport",
    addMethodSubcommands = false,
    mixinStandardHelpOptions = true,
    scope = CommandLine.ScopeType.INHERIT,
    versionProvider = SkillportCommand.Version.class,
    description = "Serves Agent Skills to AI agents over the Model Context Protocol.")
public final class SkillportCommand implements Callable<Integer> {
  /** Success, and for {@code validate}: no errors. */
  public static final int EXIT_OK = 0;

  /** {@code validate} found an error (or no skill). */
  public static final int EXIT_FAILED = 1;

  /**
   * {@code serve} cannot start on this machine as asked: the port is in use, the job store is held
   * by another server, a skill folder cannot be read.
   */
  public static final int EXIT_ENVIRONMENT = 1;

  /** The command line itself is wrong: unknown option, missing or non-existent path. */
  public static final int EXIT_USAGE = 2;

  /** An unexpected failure inside Skillport; the stack trace is logged to stderr. */
  public static final int EXIT_INTERNAL = 3;

  private static final Logger LOG = LoggerFactory.getLogger(SkillportCommand.class);

  private final CliOutput output;
  private final CliEnvironment environment;
  private Redactor redactor;

  @Spec private CommandSpec spec;

  /** Picked up by every subcommand ({@code scope = INHERIT}), so it may follow any of them. */
  @Option(
      names = "--log-format",
      // Not FORMAT: picocli's bash script keys each option's values by label, and list's
      // --format FORMAT would take these.
      paramLabel = "LOG_FORMAT",
      scope = CommandLine.ScopeType.INHERIT,
      description =
          "How stderr log lines are written: text (default) or json, one object a line (also"
              + " SKILLPORT_LOG_FORMAT).")
  void logFormat(LogFormat format) {
    StderrLogConfigurator.useFormat(format);
  }

  private SkillportCommand(CliOutput output, CliEnvironment environment) {
    this.output = output;
    this.environment = environment;
  }

  /*
   * Every command but new says addMethodSubcommands = false: none declares a subcommand as a
   * method, and without it picocli reads the annotations of each of a command's methods (and its
   * superclasses') at every start, looking for some.
   */

  /**
   * The subcommands by name, in the order the usage help lists them. The names are written out
   * rather than read from each class's {@code @Command}: reading annotations parses them all, which
   * a start paid for every subcommand it does not run (decision 0034); a test holds them equal.
   */
  static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

  private static Map<String, Class<?>> subcommands() {
    Map<String, Class<?>> all = new LinkedHashMap<>();
    all.put("validate", ValidateCommand.class);
    all.put("list", ListCommand.class);
    all.put("serve", ServeCommand.class);
    all.put("gateway", GatewayCommand.class);
    all.put("new", NewCommand.class);
    all.put("trust-bridge", TrustBridgeCommand.class);
    all.put("call", CallCommand.class);
    all.put("doctor", DoctorCommand.class);
    all.put("store", StoreCommand.class);
    all.put("completion", CompletionCommand.class);
    all.put("help", CommandLine.HelpCommand.class);
    return Collections.unmodifiableMap(all);
  }

  /** A ready-to-execute command line writing to {@code output}, with every subcommand. */
  public static CommandLine commandLine(CliOutput output, CliEnvironment environment) {
    return commandLine(output, environment, List.of());
  }

  /**
   * A command line for {@code args}: when they start with a subcommand's name, only that
   * subcommand's model is built (picocli builds each from its annotations, which is most of the
   * command line's share of a stdio server's start); otherwise every subcommand's, for usage help
   * and for the errors that list them.
   */
  public static CommandLine commandLine(
      CliOutput output, CliEnvironment environment, List<String> args) {
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(environment, "environment");
    CommandLine cl = new CommandLine(new SkillportCommand(output, environment));
    Class<?> only = args.isEmpty() ? null : SUBCOMMANDS.get(args.get(0));
    if (only != null && only != CommandLine.HelpCommand.class) {
      cl.addSubcommand(only);
    } else {
      SUBCOMMANDS.values().forEach(cl::addSubcommand);
    }
    cl.setOut(output.stdout());
    cl.setErr(output.stderr());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (e instanceof StartupFailure failure) {
            commandLine.getErr().println("skillport: " + failure.getMessage());
            if (verbose(parseResult)) {
              failure.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().flush();
            return failure.exitCode();
          }
          LOG.error("skillport {} failed", commandLine.getCommandName(), e);
          commandLine.getErr().println("skillport: internal error: " + e);
          return EXIT_INTERNAL;
        });
    cl.setParameterExceptionHandler(SkillportCommand::usageError);
    cl.getCommandSpec().exitCodeOnInvalidInput(EXIT_USAGE);
    cl.getSubcommands()
        .values()
        .forEach(sub -> sub.getCommandSpec().exitCodeOnInvalidInput(EXIT_USAGE));
    return cl;
  }

  /**
   * Reports a usage error in two lines, as {@code git} and {@code kubectl} do: what was wrong (with
   * picocli's nearest matches for a mistyped name), then where the help is. The full usage is one
   * {@code --help} away; printed here it would bury the one line that matters.
   */
  static int usageError(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    String name = command.getCommandSpec().qualifiedName();
    StringBuilder what = new StringBuilder(name).append(": ").append(e.getMessage());
    if (e instanceof UnmatchedArgumentException unmatched
        && !unmatched.getSuggestions().isEmpty()) {
      List<String> near = unmatched.getSuggestions();
      what.append(" (did you mean ")
          .append(String.join(" or ", near.subList(0, Math.min(3, near.size()))))
          .append("?)");
    }
    List<String> commands =
        command.getSubcommands().keySet().stream().filter(c -> !c.equals("help")).toList();
    String help =
        commands.isEmpty()
            ? "See '" + name + " --help'."
            : "Commands: " + String.join(", ", commands) + ". See '" + name + " --help'.";
    PrintWriter err = command.getErr();
    err.println(what);
    err.println(help);
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  private static boolean verbose(ParseResult result) {
    for (ParseResult r = result; r != null; r = r.subcommand()) {
      if (r.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  /** Without a subcommand there is nothing to do: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand");
  }

  CliOutput output() {
    return output;
  }

  List<SkillRoot> roots(SkillPaths paths) {
    return paths.roots(environment);
  }

  DisplayPaths displayPaths() {
    return new DisplayPaths(environment.workingDirectory());
  }

  CliEnvironment environment() {
    return environment;
  }

  /**
   * The redactor of this command: made once, where the command is composed, and handed to what it
   * writes out; the stderr log masks with it from then on.
   */
  synchronized Redactor redactor() {
    if (redactor == null) {
      redactor = new Redactor();
      LogRedaction.useInProcess(redactor);
    }
    return redactor;
  }

  SkillTreeReader reader() {
    return new SkillTreeReader(environment, output.stderr());
  }

  /** Reads the version Maven wrote into {@code version.properties} at build time. */
  static final class Version implements IVersionProvider {
    /** This build's version, for example {@code 0.1.0-SNAPSHOT}. */
    static String number() {
      Properties props = new Properties();
      try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          props.load(in);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return props.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
      return new String[] {
        "skillport " + number(),
        "Java "
            + System.getProperty("java.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")"
      };
    }
  }
}
