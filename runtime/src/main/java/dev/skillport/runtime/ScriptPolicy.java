package dev.skillport.runtime;

import dev.skillport.runtime.process.ChildEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
 * @param dccPython the Python interpreter for skills of a host product ({@code dcc} lower-cased →
 *     command, e.g. {@code maya → mayapy}); a {@code .py} script of a skill whose {@code dcc} is
 *     not {@code python} runs only with one of these, or inside a host adapter
 * @param pythonCompat whether {@code .py} scripts find the {@code dcc_mcp_core} package on their
 *     import path
 * @param dynamicCode whether a caller may register a dynamic tool whose Python code it gives
 *     ({@code register_tool} with {@code tool_spec.code}; {@code serve --allow-dynamic-code}, off
 *     by default, decision 0060)
 */
public record ScriptPolicy(
    String python,
    Duration defaultTimeout,
    int maxStdout,
    int maxStderr,
    Set<String> passEnv,
    Set<String> deniedInterpreters,
    Map<String, String> dccPython,
    boolean pythonCompat,
    boolean dynamicCode) {

  /**
   * Variables every script inherits from the server when set: enough to find programs, a home, a
   * locale and a temporary folder, and nothing that usually carries credentials.
   */
  public static final List<String> BASE_ENV = ChildEnvironment.BASE;

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
    Map<String, String> byDcc = new TreeMap<>();
    dccPython.forEach(
        (dcc, command) -> {
          if (dcc == null || dcc.isBlank() || command == null || command.isBlank()) {
            throw new IllegalArgumentException("dccPython needs a dcc and a command: " + dcc);
          }
          byDcc.put(dcc.strip().toLowerCase(Locale.ROOT), command.strip());
        });
    dccPython = Map.copyOf(byDcc);
  }

  /** The product whose Python scripts run with {@link #python()}: plain Python. */
  public static final String PLAIN_PYTHON = "python";

  /**
   * The interpreter for a {@code .py} script of a skill targeting {@code dcc}: {@link #python()}
   * for plain Python (or no dcc), the configured one for another product, else empty.
   */
  public Optional<String> pythonFor(String dcc) {
    if (dcc == null || dcc.isBlank() || dcc.strip().equalsIgnoreCase(PLAIN_PYTHON)) {
      return Optional.of(python);
    }
    return Optional.ofNullable(dccPython.get(dcc.strip().toLowerCase(Locale.ROOT)));
  }

  /**
   * {@code python3}, 60 s, 1 MiB of stdout, 64 KiB of stderr, no extra variables, none denied, no
   * product interpreters, the compatibility package on, no dynamic code.
   */
  public static ScriptPolicy defaults() {
    return new ScriptPolicy(
        "python3",
        Duration.ofSeconds(60),
        1 << 20,
        64 << 10,
        Set.of(),
        Set.of(),
        Map.of(),
        true,
        false);
  }

  public ScriptPolicy withPython(String command) {
    return new ScriptPolicy(
        command,
        defaultTimeout,
        maxStdout,
        maxStderr,
        passEnv,
        deniedInterpreters,
        dccPython,
        pythonCompat,
        dynamicCode);
  }

  public ScriptPolicy withDefaultTimeout(Duration timeout) {
    return new ScriptPolicy(
        python,
        timeout,
        maxStdout,
        maxStderr,
        passEnv,
        deniedInterpreters,
        dccPython,
        pythonCompat,
        dynamicCode);
  }

  public ScriptPolicy withCaps(int stdout, int stderr) {
    return new ScriptPolicy(
        python,
        defaultTimeout,
        stdout,
        stderr,
        passEnv,
        deniedInterpreters,
        dccPython,
        pythonCompat,
        dynamicCode);
  }

  public ScriptPolicy withPassEnv(Set<String> names) {
    return new ScriptPolicy(
        python,
        defaultTimeout,
        maxStdout,
        maxStderr,
        names,
        deniedInterpreters,
        dccPython,
        pythonCompat,
        dynamicCode);
  }

  public ScriptPolicy withDeniedInterpreters(Set<String> kinds) {
    return new ScriptPolicy(
        python,
        defaultTimeout,
        maxStdout,
        maxStderr,
        passEnv,
        kinds,
        dccPython,
        pythonCompat,
        dynamicCode);
  }

  /** The Python interpreter per host product ({@code dcc} → command). */
  public ScriptPolicy withDccPython(Map<String, String> commands) {
    return new ScriptPolicy(
        python,
        defaultTimeout,
        maxStdout,
        maxStderr,
        passEnv,
        deniedInterpreters,
        commands,
        pythonCompat,
        dynamicCode);
  }

  /** Whether Python scripts find the {@code dcc_mcp_core} compatibility package. */
  public ScriptPolicy withPythonCompat(boolean enabled) {
    return new ScriptPolicy(
        python,
        defaultTimeout,
        maxStdout,
        maxStderr,
        passEnv,
        deniedInterpreters,
        dccPython,
        enabled,
        dynamicCode);
  }

  /** Whether callers may register dynamic tools that run Python code they give. */
  public ScriptPolicy withDynamicCode(boolean allowed) {
    return new ScriptPolicy(
        python,
        defaultTimeout,
        maxStdout,
        maxStderr,
        passEnv,
        deniedInterpreters,
        dccPython,
        pythonCompat,
        allowed);
  }
}
