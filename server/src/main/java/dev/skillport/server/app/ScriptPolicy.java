package dev.skillport.server.app;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How script tools may run: the Python command, the timeout for tools that declare none, output
 * caps, the environment variables passed through from the server, and interpreters an operator
 * denied.
 *
 * @param python the command for {@code .py} scripts ({@code python3} by default)
 * @param defaultTimeout a script's timeout when its tool declares no {@code timeout_hint_secs}
 * @param maxStdout bytes of stdout kept; the rest is read and discarded
 * @param maxStderr characters of stderr (its tail) kept for error messages
 * @param passEnv names of server environment variables passed to scripts besides {@link #BASE_ENV}
 * @param deniedInterpreters interpreter kinds ({@code python}, {@code bash}, {@code node}) that
 *     must not run
 */
public record ScriptPolicy(
    String python,
    Duration defaultTimeout,
    int maxStdout,
    int maxStderr,
    Set<String> passEnv,
    Set<String> deniedInterpreters) {

  /**
   * Variables every script inherits from the server when set: enough to find programs, a home, a
   * locale and a temporary folder, and nothing that usually carries credentials.
   */
  public static final List<String> BASE_ENV =
      List.of(
          "PATH",
          "HOME",
          "USER",
          "LOGNAME",
          "LANG",
          "LC_ALL",
          "LC_CTYPE",
          "TZ",
          "TMPDIR",
          "TEMP",
          "TMP",
          "SYSTEMROOT",
          "PATHEXT",
          "COMSPEC",
          "WINDIR");

  public ScriptPolicy {
    Objects.requireNonNull(python, "python");
    if (python.isBlank()) {
      throw new IllegalArgumentException("python must not be blank");
    }
    Objects.requireNonNull(defaultTimeout, "defaultTimeout");
    if (defaultTimeout.isNegative() || defaultTimeout.isZero()) {
      throw new IllegalArgumentException("defaultTimeout must be positive");
    }
    if (maxStdout <= 0 || maxStderr <= 0) {
      throw new IllegalArgumentException("output caps must be positive");
    }
    passEnv = Set.copyOf(passEnv);
    deniedInterpreters =
        deniedInterpreters.stream()
            .map(s -> s.toLowerCase(Locale.ROOT))
            .collect(Collectors.toUnmodifiableSet());
  }

  /** {@code python3}, 60 s, 1 MiB of stdout, 64 KiB of stderr, no extra variables, none denied. */
  public static ScriptPolicy defaults() {
    return new ScriptPolicy(
        "python3", Duration.ofSeconds(60), 1 << 20, 64 << 10, Set.of(), Set.of());
  }

  public ScriptPolicy withPython(String command) {
    return new ScriptPolicy(
        command, defaultTimeout, maxStdout, maxStderr, passEnv, deniedInterpreters);
  }

  public ScriptPolicy withDefaultTimeout(Duration timeout) {
    return new ScriptPolicy(python, timeout, maxStdout, maxStderr, passEnv, deniedInterpreters);
  }

  public ScriptPolicy withCaps(int stdout, int stderr) {
    return new ScriptPolicy(python, defaultTimeout, stdout, stderr, passEnv, deniedInterpreters);
  }

  public ScriptPolicy withPassEnv(Set<String> names) {
    return new ScriptPolicy(
        python, defaultTimeout, maxStdout, maxStderr, names, deniedInterpreters);
  }

  public ScriptPolicy withDeniedInterpreters(Set<String> kinds) {
    return new ScriptPolicy(python, defaultTimeout, maxStdout, maxStderr, passEnv, kinds);
  }
}
