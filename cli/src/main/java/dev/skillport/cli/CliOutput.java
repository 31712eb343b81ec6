package dev.skillport.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The command line's two text channels: results on stdout, progress and messages on stderr. This is
 * the only class that touches {@code System.out} and {@code System.err}: stdout is also the stdio
 * protocol channel, so nothing else may write to it by accident.
 */
public final class CliOutput {
  private final PrintWriter stdout;
  private final PrintWriter stderr;

  public CliOutput(PrintWriter stdout, PrintWriter stderr) {
    this.stdout = Objects.requireNonNull(stdout, "stdout");
    this.stderr = Objects.requireNonNull(stderr, "stderr");
  }

  /** The process's standard streams, written as UTF-8 so JSON output is the same everywhere. */
  public static CliOutput system() {
    return new CliOutput(utf8(System.out), utf8(System.err));
  }

  private static PrintWriter utf8(PrintStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }

  public PrintWriter stdout() {
    return stdout;
  }

  public PrintWriter stderr() {
    return stderr;
  }

  public void flush() {
    stdout.flush();
    stderr.flush();
  }
}
