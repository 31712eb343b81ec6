package dev.skillport.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs a script tool out of process: the interpreter chosen by extension, arguments as JSON on
 * stdin and as {@code --key value} flags (never through a shell), the skill folder as working
 * directory, a timeout that kills the whole process tree, and capped output.
 *
 * <p>Stdout rules: a JSON object on stdout (the whole output, or else its last non-empty line) is
 * the structured result; {@code "success": false} in it, a non-zero exit code or a timeout makes
 * the result an error. Anything else is returned as text.
 */
public final class ScriptToolRunner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> INTERPRETERS =
      Map.of(
          "py", "python3",
          "sh", "bash",
          "bash", "bash",
          "js", "node",
          "mjs", "node");

  private final Duration defaultTimeout;
  private final int maxStdout;
  private final int maxStderr;
  private final ExecutorService pumps =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "script-output");
            t.setDaemon(true);
            return t;
          });

  public ScriptToolRunner(Duration defaultTimeout, int maxStdout, int maxStderr) {
    this.defaultTimeout = defaultTimeout;
    this.maxStdout = maxStdout;
    this.maxStderr = maxStderr;
  }

  /** The interpreter for a script, by extension; empty when the extension has none. */
  public static Optional<String> interpreterFor(Path script) {
    String file = script.getFileName().toString();
    int dot = file.lastIndexOf('.');
    String ext = dot < 0 ? "" : file.substring(dot + 1).toLowerCase(Locale.ROOT);
    return Optional.ofNullable(INTERPRETERS.get(ext));
  }

  /** Runs {@code script} with {@code arguments}; never throws for a failing script. */
  public ToolResult run(
      Path script, Path workDir, JsonNode arguments, Integer timeoutSecs, ToolContext context) {
    Optional<String> interpreter = interpreterFor(script);
    if (interpreter.isEmpty()) {
      return ToolCallErrors.result(
          "NO_INTERPRETER",
          "no interpreter is configured for " + script.getFileName(),
          "use a .py, .sh, .bash, .js or .mjs script");
    }
    List<String> command = new ArrayList<>();
    command.add(interpreter.get());
    command.add(script.toString());
    arguments
        .properties()
        .forEach(
            e -> {
              command.add("--" + e.getKey());
              JsonNode v = e.getValue();
              command.add(v.isTextual() ? v.asText() : v.toString());
            });
    Duration timeout = timeoutSecs != null ? Duration.ofSeconds(timeoutSecs) : defaultTimeout;
    Process process;
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
      process = pb.start();
    } catch (IOException e) {
      return ToolCallErrors.result(
          "SCRIPT_START_FAILED",
          "could not start " + interpreter.get() + ": " + e.getMessage(),
          "check that " + interpreter.get() + " is installed and on PATH");
    }
    Future<Captured> out = pumps.submit(() -> capture(process.getInputStream(), maxStdout));
    Future<Captured> err = pumps.submit(() -> capture(process.getErrorStream(), maxStderr));
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(JSON.writeValueAsBytes(arguments));
    } catch (IOException ignored) {
      // The script may exit without reading its input; that is its choice.
    }
    boolean finished = false;
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!finished) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || context.isCancelled()) {
          break;
        }
        finished =
            process.waitFor(
                Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!finished) {
      killTree(process);
      String why =
          context.isCancelled() ? "cancelled" : "timed out after " + timeout.toSeconds() + " s";
      return ToolCallErrors.result(
          "SCRIPT_" + (context.isCancelled() ? "CANCELLED" : "TIMEOUT"),
          script.getFileName() + " " + why,
          null);
    }
    Captured stdout = get(out);
    Captured stderr = get(err);
    return interpret(process.exitValue(), stdout, stderr);
  }

  private static ToolResult interpret(int exit, Captured stdout, Captured stderr) {
    String text = stdout.text();
    JsonNode object = parseObject(text.strip());
    if (object == null) {
      List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
      if (!lines.isEmpty()) {
        object = parseObject(lines.get(lines.size() - 1).strip());
      }
    }
    String truncated = stdout.truncated() ? "\n[stdout truncated]" : "";
    if (exit != 0) {
      String tail = tail(stderr.text(), 2000) + (stderr.truncated() ? "\n[stderr truncated]" : "");
      return ToolCallErrors.result(
          "SCRIPT_FAILED",
          "script exited with code " + exit + (tail.isBlank() ? "" : ": " + tail),
          null);
    }
    if (object != null) {
      boolean failed = object.has("success") && !object.get("success").asBoolean(true);
      if (failed) {
        String message =
            object.path("message").asText(object.path("error").asText(object.toString()));
        return new ToolResult(
            List.of(new dev.skillport.api.tool.Content.Text(message)), object, true);
      }
      return new ToolResult(
          List.of(new dev.skillport.api.tool.Content.Text(object.toString() + truncated)),
          object,
          false);
    }
    return ToolResult.text(text + truncated);
  }

  private static JsonNode parseObject(String text) {
    if (!text.startsWith("{")) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(text);
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static String tail(String text, int max) {
    String t = text.strip();
    return t.length() <= max ? t : "…" + t.substring(t.length() - max);
  }

  private static void killTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Captured get(Future<Captured> f) {
    try {
      return f.get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      return new Captured("", false);
    }
  }

  /** Reads a stream to its end, keeping at most {@code max} bytes (the rest is drained). */
  private static Captured capture(InputStream in, int max) throws IOException {
    ByteArrayOutputStream kept = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    boolean truncated = false;
    int n;
    while ((n = in.read(buf)) >= 0) {
      int room = max - kept.size();
      if (room > 0) {
        kept.write(buf, 0, Math.min(room, n));
      }
      if (n > room) {
        truncated = true;
      }
    }
    return new Captured(kept.toString(StandardCharsets.UTF_8), truncated);
  }

  private record Captured(String text, boolean truncated) {}
}
