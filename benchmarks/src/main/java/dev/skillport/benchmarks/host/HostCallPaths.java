package dev.skillport.benchmarks.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.samples.pythonhost.PythonHostAdapter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One script, two ways to call it: inside the sample Python host (a persistent interpreter behind a
 * main-thread queue) and as a new Python process per call (the server's script runner). The script
 * works both ways: {@code main(**params)} for the host, JSON on stdin and stdout when run as a
 * program.
 */
public final class HostCallPaths implements AutoCloseable {
  static final String SCRIPT =
      """
      import json, sys

      def main(a, b, **params):
          return {"sum": a + b}

      if __name__ == "__main__":
          print(json.dumps(main(**json.load(sys.stdin))))
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path skill;
  private final Path script;
  private final JsonNode arguments;
  private final PythonHostAdapter adapter = new PythonHostAdapter();
  private final HostExecutor executor;
  private final ScriptToolRunner runner =
      new ScriptToolRunner(Duration.ofSeconds(30), 1 << 20, 1 << 16);

  private HostCallPaths(Path skill) throws Exception {
    this.skill = skill;
    this.script = skill.resolve("scripts").resolve("add.py");
    Files.createDirectories(script.getParent());
    Files.writeString(script, SCRIPT);
    this.arguments = JSON.createObjectNode().put("a", 2).put("b", 3);
    adapter.start();
    this.executor = adapter.mainThreadExecutor().orElseThrow();
  }

  /** Writes the script into a temporary skill folder and starts the Python host. */
  public static HostCallPaths start() throws Exception {
    return new HostCallPaths(Files.createTempDirectory("skillport-host-bench"));
  }

  /** One call through the adapter's main-thread executor. */
  public ToolResult inHost() throws Exception {
    return executor.execute(
        new HostCall(
            "bench", "add", script, skill, arguments, Duration.ofSeconds(30), ToolContext.NONE));
  }

  /** The same call as a new process. */
  public ToolResult subprocess() {
    return runner.run(script, skill, arguments, 30, ToolContext.NONE);
  }

  @Override
  public void close() throws IOException {
    adapter.stop();
    try (Stream<Path> paths = Files.walk(skill)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
