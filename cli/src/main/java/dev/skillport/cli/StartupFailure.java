package dev.skillport.cli;

/**
 * A mistake in how a server was started (a port in use, a locked job store, a public address
 * without a token): the person starting it can fix it, so the command prints one line saying how
 * and exits with {@link SkillportCommand#EXIT_USAGE} or {@link SkillportCommand#EXIT_ENVIRONMENT},
 * with the stack trace only under {@code --verbose}.
 */
final class StartupFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  private StartupFailure(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** The command line is wrong (exit 2). */
  static StartupFailure usage(String message) {
    return new StartupFailure(SkillportCommand.EXIT_USAGE, message, null);
  }

  /** The machine is not as the command needs it: a port taken, a store locked (exit 1). */
  static StartupFailure environment(String message, Throwable cause) {
    return new StartupFailure(SkillportCommand.EXIT_ENVIRONMENT, message, cause);
  }

  int exitCode() {
    return exitCode;
  }
}
