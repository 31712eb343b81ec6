package dev.skillport.server.architecture.violations;

import dev.skillport.cli.CliOutput;

/** A server-side class that reaches up into the command line. */
public final class CommandLineUser {
  private CommandLineUser() {}

  public static CliOutput output() {
    return CliOutput.system();
  }
}
