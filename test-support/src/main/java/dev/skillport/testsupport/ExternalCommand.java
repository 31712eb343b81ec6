package dev.skillport.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An outside program run to its end by a test: no input, both outputs kept in memory (no files left
 * behind), and the whole process tree killed when it overruns its timeout.
 */
public final class ExternalCommand {
  private final List<String> command;
  private final Map<String, String> environment = new HashMap<>();
  private Path directory;
  private Duration timeout = Duration.ofMinutes(5);

  private ExternalCommand(List<String> command) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException("empty command");
    }
    this.command = List.copyOf(command);
  }

  /** The command to run, program first. */
  public static ExternalCommand of(List<String> command) {
    return new ExternalCommand(command);
  }

  /** The command to run, program first. */
  public static ExternalCommand of(String... command) {
    return new ExternalCommand(List.of(command));
  }

  /** Environment variables added to (or replacing those of) this JVM's environment. */
  public ExternalCommand environment(Map<String, String> variables) {
    environment.putAll(variables);
    return this;
  }

  /** The working folder (default: this JVM's). */
  public ExternalCommand directory(Path dir) {
    this.directory = Objects.requireNonNull(dir, "dir");
    return this;
  }

  /** How long the command may run before its process tree is killed (default five minutes). */
  public ExternalCommand timeout(Duration value) {
    this.timeout = Objects.requireNonNull(value, "value");
    return this;
  }

  /** Runs the command to its end. */
  public Outcome run() {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
    try {
      process.getOutputStream().close();
      Drain out = new Drain(process.getInputStream());
      Drain err = new Drain(process.getErrorStream());
      boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!finished) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
      return new Outcome(
          finished ? process.exitValue() : -1, out.text(), err.text(), !finished, timeout);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while running " + command.get(0), e);
    }
  }

  /**
   * How a command ended.
   *
   * @param exit its exit code, or -1 when it was killed for overrunning {@code timeout}
   */
  public record Outcome(
      int exit, String stdout, String stderr, boolean timedOut, Duration timeout) {
    /** "exit N", or that it was killed after its timeout. */
    public String describeExit() {
      return timedOut ? "killed after " + timeout.toSeconds() + " s" : "exit " + exit;
    }

    /** Both outputs, for assertion messages. */
    @Override
    public String toString() {
      return describeExit() + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
    }
  }

  /** Reads one output stream to its end on a thread of its own. */
  private static final class Drain {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Thread thread;

    Drain(InputStream in) {
      thread =
          new Thread(
              () -> {
                try (in) {
                  in.transferTo(bytes);
                } catch (IOException e) {
                  // the process was killed; what was read so far is kept
                }
              },
              "external-command-output");
      thread.setDaemon(true);
      thread.start();
    }

    String text() throws InterruptedException {
      thread.join(TimeUnit.SECONDS.toMillis(10));
      synchronized (bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }
  }
}
