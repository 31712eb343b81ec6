package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScriptToolRunnerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path home;

  @TempDir Path dir;

  private ScriptToolRunner runner;

  /** The environment the server passes on; HOME is a folder of the test's own. */
  private static Map<String, String> serverEnv() {
    return Map.of(
        "PATH",
        System.getenv("PATH"),
        "HOME",
        home.toString(),
        "SKILLPORT_TEST_SECRET_TOKEN",
        "s3cret",
        "RENDER_QUALITY",
        "high");
  }

  @BeforeEach
  void startRunner() {
    runner =
        new ScriptToolRunner(
            ScriptPolicy.defaults().withDefaultTimeout(Duration.ofSeconds(20)), serverEnv());
  }

  @Test
  void run_pythonScript_readsStdinJsonAndFlagsInSkillFolder() throws Exception {
    Path script =
        write(
            "echo.py",
            """
            import json, os, sys
            args = json.load(sys.stdin)
            print(json.dumps({"stdin": args, "argv": sys.argv[1:], "cwd": os.getcwd()}))
            """);

    ToolResult result =
        runner.run(script, dir, json("{\"name\":\"cube\",\"size\":2}"), null, ToolContext.NONE);

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().path("stdin").path("size").asInt()).isEqualTo(2);
    assertThat(result.structured().path("argv").toString())
        .isEqualTo("[\"--name\",\"cube\",\"--size\",\"2\"]");
    assertThat(Path.of(result.structured().path("cwd").asText()).toRealPath())
        .isEqualTo(dir.toRealPath());
  }

  @Test
  void run_argumentWithShellSyntax_isPassedVerbatimNotInterpreted() throws Exception {
    Path script = write("argv.sh", "printf '%s' \"$2\"\n");

    ToolResult result =
        runner.run(
            script, dir, json("{\"name\":\"$(touch pwned); `id`\"}"), null, ToolContext.NONE);

    assertThat(text(result)).isEqualTo("$(touch pwned); `id`");
    assertThat(dir.resolve("pwned")).doesNotExist();
  }

  @Test
  void run_environment_isMinimalPlusPassedVariables() throws Exception {
    Path script = write("env.sh", "env\n");
    ScriptToolRunner passing =
        new ScriptToolRunner(
            ScriptPolicy.defaults().withPassEnv(Set.of("RENDER_QUALITY")), serverEnv());

    String plain = text(runner.run(script, dir, json("{}"), null, ToolContext.NONE));
    String passed = text(passing.run(script, dir, json("{}"), null, ToolContext.NONE));

    assertThat(plain)
        .contains("PATH=")
        .contains("HOME=")
        .doesNotContain("SECRET")
        .doesNotContain("RENDER_QUALITY");
    assertThat(passed).contains("RENDER_QUALITY=high").doesNotContain("SECRET");
  }

  @Test
  void run_nodeScript_returnsStructuredResult() throws Exception {
    Path script =
        write(
            "sum.mjs",
            """
            let input = '';
            process.stdin.on('data', d => input += d);
            process.stdin.on('end', () => {
              const a = JSON.parse(input);
              console.log(JSON.stringify({sum: a.a + a.b}));
            });
            """);

    ToolResult result = runner.run(script, dir, json("{\"a\":2,\"b\":40}"), null, ToolContext.NONE);

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().path("sum").asInt()).isEqualTo(42);
  }

  @Test
  void run_unknownExtension_isNoInterpreterError() throws Exception {
    Path script = write("tool.rb", "puts 1\n");

    ToolResult result = runner.run(script, dir, json("{}"), null, ToolContext.NONE);

    assertThat(result.isError()).isTrue();
    assertThat(result.structured().path("code").asText()).isEqualTo("NO_INTERPRETER");
  }

  @Test
  void run_deniedInterpreter_isRefusedWithoutStarting() throws Exception {
    Path script = write("touch.sh", "touch ran\n");
    ScriptToolRunner denying =
        new ScriptToolRunner(
            ScriptPolicy.defaults().withDeniedInterpreters(Set.of("BASH")), serverEnv());

    ToolResult result = denying.run(script, dir, json("{}"), null, ToolContext.NONE);

    assertThat(result.structured().path("code").asText()).isEqualTo("INTERPRETER_DENIED");
    assertThat(dir.resolve("ran")).doesNotExist();
  }

  @Test
  void run_timeout_killsScriptAndTheChildItSpawned() throws Exception {
    Path script = write("spawn.sh", "sleep 300 &\necho $! > child.pid\nwait\n");

    long start = System.nanoTime();
    ToolResult result = runner.run(script, dir, json("{}"), 1, ToolContext.NONE);

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(result.structured().path("code").asText()).isEqualTo("SCRIPT_TIMEOUT");
    assertChildGone(dir.resolve("child.pid"));
  }

  @Test
  void run_cancelledCall_killsScriptTree() throws Exception {
    Path script =
        write(
            "spawn.py",
            """
        import subprocess, time
        child = subprocess.Popen(["sleep", "300"])
        open("child.pid", "w").write(str(child.pid))
        time.sleep(300)
        """);
    // Cancelled once the child has been started and named, however long the machine takes to get
    // there (a fixed delay raced the script's start on a loaded machine).
    Path pidFile = dir.resolve("child.pid");
    ToolContext cancelling =
        new RecordingContext() {
          @Override
          public boolean isCancelled() {
            try {
              return Files.exists(pidFile) && Files.size(pidFile) > 0;
            } catch (IOException e) {
              return false;
            }
          }
        };

    ToolResult result = runner.run(script, dir, json("{}"), null, cancelling);

    assertThat(result.structured().path("code").asText()).isEqualTo("SCRIPT_CANCELLED");
    assertChildGone(dir.resolve("child.pid"));
  }

  @Test
  void run_cancelledCall_tellsThePythonScriptWhichSeesItThroughCheckCancelled() throws Exception {
    Path script =
        write(
            "loop.py",
            """
        import time
        from dcc_mcp_core import CancelledError, check_cancelled
        open("started", "w").close()
        try:
            while True:
                check_cancelled()
                time.sleep(0.02)
        except CancelledError:
            open("saw-cancel", "w").close()
        """);
    Path started = dir.resolve("started");
    ToolContext cancelling =
        new RecordingContext() {
          @Override
          public boolean isCancelled() {
            return Files.exists(started);
          }
        };

    ToolResult result = runner.run(script, dir, json("{}"), null, cancelling);

    assertThat(result.structured().path("code").asText()).isEqualTo("SCRIPT_CANCELLED");
    assertThat(dir.resolve("saw-cancel")).exists();
  }

  @Test
  void flags_areUpstreamsDashedScalars_andLongStringsStayOnStdin() throws Exception {
    String big = "y".repeat(ScriptToolRunner.MAX_FLAG_BYTES + 1);
    assertThat(
            ScriptToolRunner.flags(
                json(
                    "{\"frame_count\":3,\"draft\":false,\"name\":\"a b\",\"tags\":[\"x\"],"
                        + "\"opts\":{},\"none\":null,\"big\":\""
                        + big
                        + "\"}")))
        .containsExactly("--frame-count", "3", "--draft", "false", "--name", "a b");
  }

  @Test
  void run_hundredMegabytesOfOutput_keepsOnlyTheCapsAndMarksTruncation() throws Exception {
    Path script =
        write(
            "flood.py",
            """
            import sys
            chunk = "x" * (1 << 20)
            for _ in range(100):
                sys.stdout.write(chunk)
                sys.stderr.write(chunk + "\\n")
            sys.stderr.write("last words\\n")
            """);
    ScriptToolRunner small =
        new ScriptToolRunner(ScriptPolicy.defaults().withCaps(4096, 2048), serverEnv());

    ToolResult result = small.run(script, dir, json("{}"), 60, ToolContext.NONE);

    String out = text(result);
    assertThat(result.isError()).isFalse();
    assertThat(out).contains("[stdout truncated after 4096 chars]");
    assertThat(out.length()).isLessThan(4096 + 100);
  }

  @Test
  void run_failingScript_isErrorWithStderrTailOnly() throws Exception {
    Path script =
        write(
            "fail.sh",
            "for i in $(seq 1 2000); do echo \"noise line $i\" >&2; done\necho 'the real cause' >&2\nexit 3\n");
    ScriptToolRunner small =
        new ScriptToolRunner(ScriptPolicy.defaults().withCaps(4096, 1000), serverEnv());

    ToolResult result = small.run(script, dir, json("{}"), null, ToolContext.NONE);

    assertThat(result.isError()).isTrue();
    String message = result.structured().path("message").asText();
    assertThat(message).startsWith("script exited with code 3").endsWith("the real cause");
    assertThat(message).doesNotContain("noise line 1\n").hasSizeLessThan(1100);
  }

  @Test
  void run_progressAndLogLines_reachTheContextAndStayOutOfStderr() throws Exception {
    Path script =
        write(
            "work.py",
            """
            import sys
            print("::progress 1 4 starting", file=sys.stderr)
            print("::progress 2 ? halfway there", file=sys.stderr)
            print("::log warning mesh has holes", file=sys.stderr)
            print("::progress oops", file=sys.stderr)
            print("plain stderr", file=sys.stderr)
            sys.exit(1)
            """);
    RecordingContext context = new RecordingContext();

    ToolResult result = runner.run(script, dir, json("{}"), null, context);

    assertThat(context.events)
        .containsExactly(
            "progress 1.0/4.0 starting",
            "progress 2.0/null halfway there",
            "log warning mesh has holes");
    String message = result.structured().path("message").asText();
    assertThat(message)
        .contains("plain stderr")
        .contains("::progress oops")
        .doesNotContain("starting");
  }

  private static void assertChildGone(Path pidFile) throws Exception {
    assertThat(pidFile).exists();
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    Optional<ProcessHandle> child = ProcessHandle.of(pid);
    while (child.isPresent() && child.get().isAlive() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(child.map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
  }

  private Path write(String name, String body) throws Exception {
    return Files.writeString(dir.resolve(name), body);
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private static String text(ToolResult result) {
    return ((Content.Text) result.content().get(0)).text();
  }

  /** Records what a script reports through its context. */
  private static class RecordingContext implements ToolContext {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void progress(double progress, Double total, String message) {
      events.add("progress " + progress + "/" + total + " " + message);
    }

    @Override
    public void log(String level, String message) {
      events.add("log " + level + " " + message);
    }

    @Override
    public boolean isCancelled() {
      return false;
    }
  }
}
