package dev.skillport.cli;

import java.util.List;

/** The {@code skillport} executable: runs the command line and exits with its code. */
public final class Main {
  /** The SLF4J property naming the provider, read at the first logger. */
  static final String PROVIDER_PROPERTY = "slf4j.provider";

  /** The SLF4J property for its own reports; its notice of a named provider is information. */
  static final String VERBOSITY_PROPERTY = "slf4j.internal.verbosity";

  private Main() {}

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    nameLogProvider();
    CliOutput output = CliOutput.system();
    int exitCode =
        SkillportCommand.commandLine(output, CliEnvironment.system(), List.of(args)).execute(args);
    output.flush();
    System.exit(exitCode);
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
