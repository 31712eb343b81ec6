package dev.skillport.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A Skillport HTTP server started the way users start it, with {@code bin/skillport serve --http}
 * on 127.0.0.1 and a free port, over the jar the build made ({@code skillport.jar}). It runs with a
 * home folder the test gives it, so its job records and plugins folder are the test's; its temp
 * folder is the test JVM's. {@link #close()} stops it with SIGTERM, as a user's Ctrl-C or a service
 * manager would.
 */
public final class LaunchedServer implements AutoCloseable {
  private static final String SERVING = "serving MCP at ";

  private final Process process;
  private final URI uri;
  private final StringBuffer stderr;

  private LaunchedServer(Process process, URI uri, StringBuffer stderr) {
    this.process = process;
    this.uri = uri;
    this.stderr = stderr;
  }

  /** {@code bin/skillport} in the repository. */
  public static Path launcher() {
    return InteropTools.repository().resolve("bin/skillport");
  }

  /** The jar the launcher runs: {@code skillport.jar}, else the cli module's build output. */
  public static Path jar() {
    String configured = System.getProperty("skillport.jar");
    Path jar =
        configured != null
            ? Path.of(configured)
            : InteropTools.repository().resolve("cli/target/skillport.jar");
    return jar.toAbsolutePath();
  }

  /**
   * The environment {@code bin/skillport} runs with: {@code home} as its home, this JVM's temp
   * folder, this JVM's {@code java} first on the path, the build's jar.
   */
  public static Map<String, String> environment(Path home) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toAbsolutePath().toString());
    env.put("TMPDIR", System.getProperty("java.io.tmpdir"));
    env.put("SKILLPORT_JAR", jar().toString());
    env.put(
        "PATH",
        Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv().get("PATH"));
    // The build's choice of search for the servers its tests start (lexical, so that each server
    // does not load the embedding model) reaches servers started by a client's own environment too.
    String search = System.getenv("SKILLPORT_SEARCH");
    if (search != null) {
      env.put("SKILLPORT_SEARCH", search);
    }
    return env;
  }

  /** {@code bin/skillport ARGS...} run to its end with {@link #environment(Path)}. */
  public static ExternalCommand command(Path home, String... args) {
    List<String> command = new ArrayList<>(List.of(launcher().toString()));
    command.addAll(List.of(args));
    return ExternalCommand.of(command)
        .environment(environment(home))
        .timeout(Duration.ofMinutes(1));
  }

  /**
   * Starts {@code bin/skillport serve --http --host 127.0.0.1 --port 0 ARGS...} and returns once it
   * prints the address it serves at.
   *
   * @param home the server's home folder ({@code ~/.skillport} lives there)
   */
  public static LaunchedServer start(Path home, String... args) {
    return start(home, Map.of(), args);
  }

  /** Like {@link #start(Path, String...)}, with {@code extraEnvironment} added. */
  public static LaunchedServer start(
      Path home, Map<String, String> extraEnvironment, String... args) {
    return start(List.of(), home, extraEnvironment, args);
  }

  /**
   * Like {@link #start(Path, Map, String...)}, with the launcher started by {@code wrapper} (a
   * script that sets something up, such as a lower descriptor limit, then {@code exec}s its
   * arguments, so that the process is still the server's).
   */
  public static LaunchedServer startWith(
      Path wrapper, Path home, Map<String, String> extraEnvironment, String... args) {
    return start(List.of(wrapper.toString()), home, extraEnvironment, args);
  }

  private static LaunchedServer start(
      List<String> prefix, Path home, Map<String, String> extraEnvironment, String... args) {
    Objects.requireNonNull(home, "home");
    if (!Files.isRegularFile(jar())) {
      throw new IllegalStateException(jar() + " is missing: this test runs after `package`");
    }
    List<String> command = new ArrayList<>(prefix);
    command.addAll(
        List.of(launcher().toString(), "serve", "--http", "--host", "127.0.0.1", "--port", "0"));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(environment(home));
    builder.environment().putAll(extraEnvironment);
    Process process;
    try {
      process = builder.start();
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
    StringBuffer stderr = new StringBuffer();
    CompletableFuture<URI> served = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader err =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null) {
                  stderr.append(line).append('\n');
                  int at = line.indexOf(SERVING);
                  if (at >= 0) {
                    served.complete(URI.create(line.substring(at + SERVING.length()).strip()));
                  }
                }
              } catch (IOException e) {
                // the process ended
              }
              served.completeExceptionally(
                  new IllegalStateException("the server ended before serving:\n" + stderr));
            },
            "launched-server-stderr");
    reader.setDaemon(true);
    reader.start();
    try {
      return new LaunchedServer(process, served.get(90, TimeUnit.SECONDS), stderr);
    } catch (ExecutionException | TimeoutException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new IllegalStateException("the server did not start:\n" + stderr, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while starting the server", e);
    }
  }

  /** The MCP endpoint, {@code http://127.0.0.1:PORT/mcp}. */
  public URI uri() {
    return uri;
  }

  /** The server's process id (the JVM's: the launcher execs it). */
  public long pid() {
    return process.pid();
  }

  /** What the server printed on stderr so far. */
  public String stderr() {
    return stderr.toString();
  }

  /** Whether the process still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Sends a signal by name ({@code TERM}, {@code INT}, {@code KILL}) with {@code kill}. */
  public void signal(String name) {
    ExternalCommand.Outcome kill =
        ExternalCommand.of("kill", "-" + name, Long.toString(pid()))
            .timeout(Duration.ofSeconds(10))
            .run();
    if (kill.exit() != 0 && process.isAlive()) {
      throw new IllegalStateException("kill -" + name + " failed: " + kill);
    }
  }

  /** Waits for the process to end and returns its exit code, or throws after {@code timeout}. */
  public int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "the server still runs after " + timeout.toMillis() + " ms:\n" + stderr);
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Stops the server with SIGTERM, and kills it if it has not ended 15 s later. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
