package dev.skillport.cli;

import java.util.List;

/** The {@code skillport} executable: runs the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    CliOutput output = CliOutput.system();
    int exitCode =
        SkillportCommand.commandLine(output, CliEnvironment.system(), List.of(args)).execute(args);
    output.flush();
    System.exit(exitCode);
  }
}
