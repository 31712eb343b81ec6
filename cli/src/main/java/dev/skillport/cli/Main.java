package dev.skillport.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
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
    warmJson();
    nameLogProvider();
    CliOutput output = CliOutput.system();
    int exitCode =
        SkillportCommand.commandLine(output, CliEnvironment.system(), List.of(args)).execute(args);
    output.flush();
    System.exit(exitCode);
  }

  /**
   * Initialises Jackson on a second thread while this one builds the command line. Every command
   * reads or writes JSON, and Jackson's first use initialises classes that cost a start tens of
   * milliseconds on its critical path (its date format and locale data, and on JDK 25 {@code
   * BigDecimal}'s tables, which its parser's constants need); here they are ready by the time the
   * command runs. A daemon: a command that ends first does not wait for it.
   */
  static void warmJson() {
    Thread warm =
        new Thread(
            () -> {
              try {
                new ObjectMapper().readTree("{\"n\":0.5}");
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            "skillport-warm");
    warm.setDaemon(true);
    warm.start();
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
