package dev.skillport.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What the command line needs to know about the process it runs in, injected so tests decide it.
 *
 * @param workingDirectory the directory relative paths are resolved and shown against
 * @param userHome the user's home directory (for {@code ~/.skillport/skills}), or null
 * @param interactive whether a person is at a terminal ({@code System.console() != null})
 * @param variables the environment variables
 * @param progressDelay how long a read may take before a spinner appears
 */
public record CliEnvironment(
    Path workingDirectory,
    Path userHome,
    boolean interactive,
    Map<String, String> variables,
    Duration progressDelay) {

  /** Reads longer than this show a spinner. */
  public static final Duration DEFAULT_PROGRESS_DELAY = Duration.ofSeconds(1);

  public CliEnvironment {
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    variables = Map.copyOf(Objects.requireNonNull(variables, "variables"));
    Objects.requireNonNull(progressDelay, "progressDelay");
    if (progressDelay.isNegative()) {
      throw new IllegalArgumentException("progressDelay must not be negative");
    }
  }

  /** The running process: its console and environment. */
  public static CliEnvironment system() {
    String home = System.getProperty("user.home");
    return new CliEnvironment(
        Path.of("").toAbsolutePath(),
        home == null || home.isBlank() ? null : Path.of(home),
        System.console() != null,
        System.getenv(),
        DEFAULT_PROGRESS_DELAY);
  }

  /**
   * Whether a spinner may be drawn on stderr. Only for a person at a terminal: not when the output
   * is piped or redirected (no console), not under CI (logs keep every carriage-return frame), not
   * on a terminal that cannot move the cursor ({@code TERM=dumb}). The spinner uses no colour, so
   * {@code NO_COLOR} does not turn it off.
   */
  public boolean progressAllowed() {
    return interactive && !isSet("CI") && !"dumb".equals(variables.get("TERM"));
  }

  private boolean isSet(String name) {
    String value = variables.get(name);
    return value != null && !value.isEmpty() && !"false".equalsIgnoreCase(value);
  }
}
