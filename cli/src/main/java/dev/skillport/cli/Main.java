package dev.skillport.cli;

import java.util.List;

/** The {@code skillport} executable: runs the command line and exits with its code. */
public final class Main {
  /** The SLF4J property naming the provider, read at the first logger. */
  static final String PROVIDER_PROPERTY = "slf4j.provider";

  /** The SLF4J property for its own reports; its notice of a named provider is information. */
  static final String VERBOSITY_PROPERTY = "slf4j.internal.verbosity";

  private Main() {}

  /**
   * Runs the command line. A stdio {@code serve} whose client opens as it did last time (decision
   * 0037) gets that opening answered on this thread from the {@link StartCache}, while the server
   * starts on another.
   */
  public static void main(String[] args) {
    StdioStart start = StdioStart.of(args);
    nameLogProvider();
    if (start.lane() == null) {
      System.exit(execute(args, start));
      return;
    }
    Thread server =
        new Thread(
            () -> {
              int exitCode = SkillportCommand.EXIT_INTERNAL;
              try {
                exitCode = execute(args, start);
              } finally {
                // The lane's thread may still wait for input: the process ends here, as it would
                // have on the main thread.
                System.exit(exitCode);
              }
            },
            "skillport");
    server.start();
    start.lane().run();
  }

  private static int execute(String[] args, StdioStart start) {
    CliOutput output = CliOutput.system();
    int exitCode =
        SkillportCommand.commandLine(output, CliEnvironment.system(), List.of(args), start)
            .execute(args);
    output.flush();
    return exitCode;
  }

  /**
   * Names {@link SkillportLogProvider} to SLF4J unless a provider is named already, and keeps
   * SLF4J's notice that it was named off stderr.
   */
  static void nameLogProvider() {
    if (System.getProperty(PROVIDER_PROPERTY) == null) {
      System.setProperty(PROVIDER_PROPERTY, SkillportLogProvider.class.getName());
      if (System.getProperty(VERBOSITY_PROPERTY) == null) {
        System.setProperty(VERBOSITY_PROPERTY, "WARN");
      }
    }
  }
}
