package dev.skillport.samples.pythonhost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.script.ScriptResults;
import dev.skillport.api.tool.ToolResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Python process running {@code host_loop.py}, and the queue in front of it. Every call goes
 * through a single thread (the host's "main thread"), so scripts never run concurrently; a call
 * that times out or is cancelled restarts the interpreter, because Python cannot stop a running
 * script safely from outside.
 */
final class PythonInterpreter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PythonInterpreter.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long POLL_MILLIS = 20;

  private final String python;
  private final String loop;
  private final ExecutorService mainThread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "python-host-main");
            t.setDaemon(true);
            return t;
          });
  private volatile Process process;
  private volatile boolean closed;
  // Read and written only on the main thread.
  private Writer requests;
  private BufferedReader answers;
  private long nextId;

  PythonInterpreter(String python) {
    this.python = python;
    this.loop = readLoop();
  }

  private static String readLoop() {
    try (InputStream in = PythonInterpreter.class.getResourceAsStream("host_loop.py")) {
      if (in == null) {
        throw new IllegalStateException("host_loop.py is missing from the plugin");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("host_loop.py cannot be read", e);
    }
  }

  /** Launches the interpreter (on the main thread) and waits until it runs. */
  void start() throws InterruptedException, ExecutionException {
    mainThread
        .submit(
            () -> {
              ensureRunning();
              return null;
            })
        .get();
  }

  /**
   * Whether calls can be taken: until closed, a dead interpreter is started again by the next call,
   * so a crash or a timed-out script does not make the host unavailable.
   */
  boolean isAvailable() {
    return !closed;
  }

  boolean isRunning() {
    Process p = process;
    return p != null && p.isAlive();
  }

  long pid() {
    Process p = process;
    return p == null ? -1 : p.pid();
  }

  /** Queues a call for the main thread and waits for it, its timeout or its cancellation. */
  ToolResult execute(HostCall call) throws InterruptedException, ExecutionException {
    Future<ToolResult> answer = mainThread.submit(() -> roundTrip(call));
    long deadline = System.nanoTime() + call.timeout().toNanos();
    while (true) {
      try {
        return answer.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        boolean cancelled = call.context().isCancelled();
        if (cancelled || System.nanoTime() - deadline > 0) {
          answer.cancel(true);
          restart();
          return ToolResult.error(
              call.tool()
                  + (cancelled
                      ? " was cancelled"
                      : " timed out after " + call.timeout().toSeconds() + " s")
                  + "; the Python host was restarted and its state is lost");
        }
      }
    }
  }

  /**
   * The host's state for {@code scene://current} (process, Python version, loaded modules, scene
   * objects), read on the main thread between calls; waits at most {@code timeout} for a running
   * script to finish first.
   */
  JsonNode scene(Duration timeout) throws IOException, InterruptedException {
    Future<JsonNode> answer;
    try {
      answer =
          mainThread.submit(
              () -> {
                ObjectNode request = JSON.createObjectNode().put("builtin", "scene");
                JsonNode reply = exchange(request, "the scene read");
                if (!reply.path("ok").asBoolean()) {
                  throw new IOException(reply.path("error").asText("the scene read failed"));
                }
                return reply.path("result");
              });
    } catch (RejectedExecutionException e) {
      throw new IOException("the Python host is stopped", e);
    }
    try {
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // Only a read still queued behind a script is dropped; the script itself keeps running.
      answer.cancel(false);
      throw new IOException("the Python host is busy; read the scene again later", e);
    } catch (ExecutionException e) {
      throw new IOException("the scene could not be read: " + e.getCause().getMessage(), e);
    }
  }

  private ToolResult roundTrip(HostCall call) throws IOException {
    ObjectNode request = JSON.createObjectNode();
    request.put("script", call.script().toAbsolutePath().toString());
    request.put("cwd", call.skillDirectory().toAbsolutePath().toString());
    request.set("params", call.arguments());
    return toResult(exchange(request, call.tool()), call.skillDirectory());
  }

  /** Sends one request on the main thread and waits for the answer with its id. */
  private JsonNode exchange(ObjectNode request, String what) throws IOException {
    ensureRunning();
    long id = ++nextId;
    request.put("id", id);
    requests.write(JSON.writeValueAsString(request));
    requests.write('\n');
    requests.flush();
    String line;
    while ((line = answers.readLine()) != null) {
      JsonNode answer = JSON.readTree(line);
      if (answer.path("id").asLong() == id) {
        return answer;
      }
    }
    throw new IOException("the Python host exited during " + what);
  }

  private static ToolResult toResult(JsonNode answer, Path skillDirectory) {
    JsonNode printed = answer.path("printed");
    if (printed.isObject()) {
      // A script without main: its output and exit code, read as a script run on its own is read.
      return ScriptResults.interpret(
          printed.path("exit").asInt(),
          printed.path("stdout").asText(""),
          false,
          "",
          skillDirectory);
    }
    if (!answer.path("ok").asBoolean()) {
      String trace = answer.path("traceback").asText("");
      return ToolResult.error(
          answer.path("error").asText("the script failed") + (trace.isEmpty() ? "" : "\n" + trace));
    }
    JsonNode result = answer.path("result");
    if (result.isObject()) {
      return ToolResult.structured(result);
    }
    if (result.isNull() || result.isMissingNode()) {
      return ToolResult.text("");
    }
    return ToolResult.text(result.isTextual() ? result.asText() : result.toString());
  }

  private void ensureRunning() throws IOException {
    if (isRunning()) {
      return;
    }
    ProcessBuilder pb = new ProcessBuilder(List.of(python, "-u", "-c", loop));
    pb.environment().put("PYTHONIOENCODING", "utf-8");
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process p = pb.start();
    requests = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
    answers = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    process = p;
    LOG.info("Python host started (pid {})", p.pid());
  }

  private void restart() {
    Process p = process;
    if (p != null) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      try {
        p.waitFor(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    // The next call starts a fresh interpreter on the main thread.
  }

  @Override
  public void close() {
    closed = true;
    mainThread.shutdownNow();
    Process p = process;
    if (p != null) {
      try {
        p.getOutputStream().close();
        if (!p.waitFor(2, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (IOException e) {
        p.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }
}
