package dev.skillport.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One in-process run of the command line with captured stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

  /** Runs {@code args} as if typed in {@code workingDirectory}, not at a terminal. */
  static CliRun execute(Path workingDirectory, String... args) {
    return execute(
        new CliEnvironment(
            workingDirectory, null, false, Map.of(), CliEnvironment.DEFAULT_PROGRESS_DELAY),
        args);
  }

  /** Runs {@code args} in {@code workingDirectory} with these environment variables. */
  static CliRun execute(Path workingDirectory, Map<String, String> variables, String... args) {
    return execute(
        new CliEnvironment(
            workingDirectory, null, false, variables, CliEnvironment.DEFAULT_PROGRESS_DELAY),
        args);
  }

  static CliRun execute(CliEnvironment env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliOutput output = new CliOutput(new PrintWriter(out, true), new PrintWriter(err, true));
    // As Main builds it: only the named subcommand's model.
    int code = SkillportCommand.commandLine(output, env, List.of(args)).execute(args);
    output.flush();
    return new CliRun(code, out.toString(), err.toString());
  }
}
