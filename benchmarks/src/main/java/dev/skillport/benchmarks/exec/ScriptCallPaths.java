package dev.skillport.benchmarks.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One trivial script tool, two ways to run it: through {@link ScriptToolRunner} (policy, minimal
 * environment, output pumps, result parsing) and as a bare {@link ProcessBuilder} that writes the
 * same JSON to stdin, reads stdout and waits. The difference is what the runner adds per call.
 */
public final class ScriptCallPaths implements AutoCloseable {
  static final String PYTHON =
      """
      import json, sys
      args = json.load(sys.stdin)
      print(json.dumps({"echo": args}))
      """;

  // Both scripts answer {"echo": <arguments>}. Bash has no JSON parser, so it wraps the raw input
  // line, which still exercises stdin, stdout and the runner's JSON result parsing.
  static final String BASH =
      """
      read -r input
      printf '{"echo": %s}\\n' "$input"
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path skill;
  private final Path script;
  private final List<String> bareCommand;
  private final JsonNode arguments;
  private final byte[] stdin;
  // -Dskillport.bench.python=/path/to/python3 runs both sides on that interpreter, e.g. to leave
  // out a version manager's shim, whose start-up otherwise dominates both.
  private final ScriptToolRunner runner =
      new ScriptToolRunner(
          ScriptPolicy.defaults()
              .withPython(
                  System.getProperty("skillport.bench.python", ScriptPolicy.defaults().python())));

  private ScriptCallPaths(Path skill, String kind) throws IOException {
    this.skill = skill;
    boolean python = kind.equals("python");
    this.script = skill.resolve("scripts").resolve(python ? "echo.py" : "echo.sh");
    Files.createDirectories(script.getParent());
    Files.writeString(script, python ? PYTHON : BASH);
    // The same interpreter the runner picks, looked up on PATH the same way.
    String interpreter =
        ScriptToolRunner.interpreterFor(script)
            .map(i -> i.equals("python3") ? runner.policy().python() : i)
            .orElseThrow();
    this.bareCommand = List.of(interpreter, script.toString());
    this.arguments = JSON.createObjectNode().put("text", "hello");
    this.stdin = JSON.writeValueAsBytes(arguments);
  }

  /**
   * Writes the script for {@code kind} ({@code python} or {@code bash}) into a temporary skill
   * folder.
   */
  public static ScriptCallPaths create(String kind) throws IOException {
    String k = kind.toLowerCase(Locale.ROOT);
    if (!k.equals("python") && !k.equals("bash")) {
      throw new IllegalArgumentException("kind must be python or bash, not " + kind);
    }
    return new ScriptCallPaths(Files.createTempDirectory("skillport-exec-bench"), k);
  }

  /** One call through the server's script runner. */
  public ToolResult runner() {
    return runner.run(script, skill, arguments, 30, ToolContext.NONE);
  }

  /** The same script as a bare process: stdin written, stdout read to the end, exit awaited. */
  public byte[] bare() throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(bareCommand)
            .directory(skill.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin);
    }
    byte[] out;
    try (InputStream o = process.getInputStream()) {
      out = o.readAllBytes();
    }
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IOException(bareCommand + " exited with " + exit);
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    try (Stream<Path> paths = Files.walk(skill)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
