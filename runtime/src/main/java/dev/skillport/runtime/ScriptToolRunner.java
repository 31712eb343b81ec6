package dev.skillport.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.script.PythonCompat;
import dev.skillport.api.script.ScriptResults;
import dev.skillport.api.tool.ClientRequest;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.runtime.process.ProcessTree;
import dev.skillport.runtime.process.ScriptRuns;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a script tool out of process, under a {@link ScriptPolicy}: the interpreter chosen by
 * extension from a fixed allowlist, arguments as JSON on stdin and as {@code --key value} flags
 * ({@link #flags}; never through a shell), a minimal environment, the skill folder as working
 * directory, a timeout or cancellation that kills the whole process tree ({@link ProcessTree}:
 * daemons that detached included), and capped output (what exceeds a cap is read and discarded,
 * never buffered). The result is what the script printed before it exited: a child that keeps its
 * output pipes open gets {@link #PIPE_GRACE}, then the rest of the tree is killed. {@link
 * #close(Duration)} stops every run and every process the runs left behind when the server shuts
 * down.
 *
 * <p>Stdout is read by {@link ScriptResults}: a JSON object (the whole output, or else its last
 * non-empty line) is the result envelope; {@code "success": false} in it, a non-zero exit code or a
 * timeout makes the result an error whose text is the script's own message. Stderr lines starting
 * with {@code ::progress} or {@code ::log} report progress and log entries (see {@link
 * ScriptStderr}).
 *
 * <p>A script asks the client with {@code ::ask KEY METHOD PARAMS_JSON} lines on stderr (method
 * {@code elicitation/create}, {@code sampling/createMessage} or {@code roots/list}) and exits; its
 * output is then ignored. The runner gets the answers through the tool context (a request to a
 * session's client, or an {@code input_required} round trip with a stateless one) and runs the
 * script again with every answer so far in {@code SKILLPORT_INPUT_RESPONSES} (a JSON object, key to
 * the client's result; {@code {}} on the first run), until it stops asking.
 *
 * <p>Python scripts run with the interpreter for their skill's {@code dcc} ({@link
 * ScriptPolicy#pythonFor}) and, unless the policy turns it off, find the {@code dcc_mcp_core}
 * compatibility package on {@code PYTHONPATH}: written for each call into a folder of its own in
 * the temporary directory and removed when the script ends. {@code PYTHONDONTWRITEBYTECODE} keeps
 * Python from writing {@code __pycache__} folders into skill folders (which would also wake the
 * skill watcher). Such a script also finds {@value #CANCEL_FILE_ENV}: when its call is cancelled
 * the file appears and the script has {@link #CANCEL_GRACE} to stop before its tree is killed.
 */
public final class ScriptToolRunner implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> KINDS =
      Map.of(
          "py", "python",
          "sh", "bash",
          "bash", "bash",
          "js", "node",
          "mjs", "node");
  private static final Duration POLL = Duration.ofMillis(50);

  /**
   * How long after the script exits its output pipes may stay open (a child still writing); then
   * the rest of its tree is killed and the output read until then is the result.
   */
  static final Duration PIPE_GRACE = Duration.ofMillis(300);

  /** How long after the kill the pipes are waited for; a process that escaped keeps them. */
  private static final Duration AFTER_KILL = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(ScriptToolRunner.class);

  /** Marks this runner's processes; every run adds its number. */
  private final String markerPrefix =
      "skillport-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());

  private final AtomicLong runNumbers = new AtomicLong();
  private final Set<ProcessTree> running = ConcurrentHashMap.newKeySet();
  private volatile boolean refusing;
  private volatile ScriptRuns runs;
  private volatile boolean stopping;

  private final ScriptPolicy policy;
  private final Map<String, String> environment;
  private final ExecutorService pumps =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "script-output");
            t.setDaemon(true);
            return t;
          });

  public ScriptToolRunner(Duration defaultTimeout, int maxStdout, int maxStderr) {
    this(ScriptPolicy.defaults().withDefaultTimeout(defaultTimeout).withCaps(maxStdout, maxStderr));
  }

  public ScriptToolRunner(ScriptPolicy policy) {
    this(policy, System.getenv());
  }

  /** A runner whose scripts inherit from {@code serverEnvironment} only what the policy allows. */
  public ScriptToolRunner(ScriptPolicy policy, Map<String, String> serverEnvironment) {
    this.policy = Objects.requireNonNull(policy, "policy");
    Map<String, String> env = new TreeMap<>();
    for (String name : ScriptPolicy.BASE_ENV) {
      copy(serverEnvironment, name, env);
    }
    for (String name : policy.passEnv()) {
      copy(serverEnvironment, name, env);
    }
    env.put("PYTHONIOENCODING", "utf-8");
    env.put("PYTHONUNBUFFERED", "1");
    this.environment = Map.copyOf(env);
  }

  /**
   * Records every script this runner starts in {@code runs} from now on, so that the instance's
   * next run can kill what it left if it dies.
   */
  public void recordRuns(ScriptRuns runs) {
    this.runs = runs;
  }

  /** Scripts running now (each is one process tree). */
  public int runningScripts() {
    return running.size();
  }

  public ScriptPolicy policy() {
    return policy;
  }

  /** The interpreter for a script, by extension; empty when the extension has none. */
  public static Optional<String> interpreterFor(Path script) {
    return kindOf(script).map(k -> k.equals("python") ? "python3" : k);
  }

  private static Optional<String> kindOf(Path script) {
    String file = script.getFileName().toString();
    int dot = file.lastIndexOf('.');
    String ext = dot < 0 ? "" : file.substring(dot + 1).toLowerCase(Locale.ROOT);
    return Optional.ofNullable(KINDS.get(ext));
  }

  /**
   * Whether {@code script} of a skill targeting {@code dcc} can only run inside a host: a Python
   * script of a product other than plain Python for which no interpreter is configured.
   */
  public boolean needsHost(Path script, String dcc) {
    return kindOf(script).filter(k -> k.equals("python")).isPresent()
        && policy.pythonFor(dcc).isEmpty();
  }

  /**
   * Runs {@code script} of a plain-Python skill; see {@link #run(Path, Path, JsonNode, Integer,
   * ToolContext, String)}.
   */
  public ToolResult run(
      Path script, Path workDir, JsonNode arguments, Integer timeoutSecs, ToolContext context) {
    return run(script, workDir, arguments, timeoutSecs, context, ScriptPolicy.PLAIN_PYTHON);
  }

  /**
   * Runs {@code script} of a skill targeting {@code dcc} with {@code arguments}; never throws for a
   * failing script.
   */
  public ToolResult run(
      Path script,
      Path workDir,
      JsonNode arguments,
      Integer timeoutSecs,
      ToolContext context,
      String dcc) {
    Optional<String> kind = kindOf(script);
    if (kind.isEmpty()) {
      return ToolResult.failure(
          ToolFailureCode.NO_INTERPRETER,
          "no interpreter is allowed for " + script.getFileName(),
          "use a .py, .sh, .bash, .js or .mjs script");
    }
    if (policy.deniedInterpreters().contains(kind.get())) {
      return ToolResult.failure(
          ToolFailureCode.INTERPRETER_DENIED,
          kind.get() + " scripts are denied by the server's configuration",
          "ask the operator, or use a tool of another kind");
    }
    boolean python = kind.get().equals("python");
    String interpreter = python ? policy.pythonFor(dcc).orElse(null) : kind.get();
    if (interpreter == null) {
      return dccInterpreterMissing(dcc);
    }
    Path compat = null;
    if (python && policy.pythonCompat()) {
      try {
        compat = PythonCompat.writeTo(Files.createTempDirectory("skillport-py-"));
      } catch (IOException | RuntimeException e) {
        return ToolResult.failure(
            ToolFailureCode.SCRIPT_START_FAILED,
            "could not write the dcc_mcp_core package for the script: " + e.getMessage(),
            "check the temporary folder, or serve with --no-python-compat");
      }
    }
    try {
      return rounds(script, workDir, arguments, timeoutSecs, context, interpreter, python, compat);
    } finally {
      if (compat != null) {
        deleteTree(compat);
      }
    }
  }

  /** The environment variable holding the client's answers to a script's questions. */
  public static final String INPUT_RESPONSES_ENV = "SKILLPORT_INPUT_RESPONSES";

  /** The environment variable naming the file whose existence says the call was cancelled. */
  public static final String CANCEL_FILE_ENV = "SKILLPORT_CANCEL_FILE";

  private static final String CANCEL_FILE = "cancelled";

  /** How long a cancelled script has, once told, to stop by itself. */
  static final Duration CANCEL_GRACE = Duration.ofSeconds(1);

  /** Longest string passed as a flag; longer ones reach the script on stdin only. */
  static final int MAX_FLAG_BYTES = 8 * 1024;

  /** Times a script may ask and be run again in one call. */
  static final int MAX_ROUNDS = 8;

  /** Largest answers (bytes of JSON) handed to a script; an environment variable has a limit. */
  static final int MAX_ANSWERS_BYTES = 100_000;

  /**
   * Runs the script, asking the client whatever it asks and running it again with the answers,
   * until it stops asking.
   */
  private ToolResult rounds(
      Path script,
      Path workDir,
      JsonNode arguments,
      Integer timeoutSecs,
      ToolContext context,
      String interpreter,
      boolean python,
      Path compat) {
    ObjectNode answers = JSON.createObjectNode();
    for (int round = 1; ; round++) {
      Attempt attempt =
          start(
              script,
              workDir,
              arguments,
              timeoutSecs,
              context,
              interpreter,
              python,
              compat,
              answers);
      if (attempt.asks().isEmpty()) {
        return attempt.result();
      }
      Map<String, ClientRequest> open = new LinkedHashMap<>(attempt.asks());
      open.keySet().removeIf(answers::has);
      if (open.isEmpty()) {
        return ToolResult.failure(
            ToolFailureCode.SCRIPT_ASKED_AGAIN,
            script.getFileName() + " asked again what it was answered: " + attempt.asks().keySet(),
            "read " + INPUT_RESPONSES_ENV + " before asking");
      }
      if (round >= MAX_ROUNDS) {
        return ToolResult.failure(
            ToolFailureCode.TOO_MANY_QUESTIONS,
            script.getFileName() + " kept asking after " + MAX_ROUNDS + " rounds",
            "ask everything the script needs at once");
      }
      try {
        context.requestAll(open).forEach(answers::set);
      } catch (ClientRequestException e) {
        return e.reason() == ClientRequestException.Reason.INPUT_REQUIRED
            ? ToolResult.failure(
                ToolFailureCode.INPUT_REQUIRED, "the client is asked for input", null)
            : ToolResult.failure(
                ToolFailureCode.CLIENT_REQUEST_FAILED,
                script.getFileName() + " asked the client: " + e.getMessage(),
                null);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ToolResult.failure(
            ToolFailureCode.SCRIPT_CANCELLED,
            script.getFileName() + " cancelled while asking",
            null);
      }
      if (answers.toString().getBytes(StandardCharsets.UTF_8).length > MAX_ANSWERS_BYTES) {
        return ToolResult.failure(
            ToolFailureCode.INPUT_TOO_LARGE,
            "the client's answers exceed " + MAX_ANSWERS_BYTES + " bytes",
            "ask for less");
      }
    }
  }

  /** One run of a script: its result, and what it asked (its result is ignored then). */
  private record Attempt(ToolResult result, Map<String, ClientRequest> asks) {}

  /** The refusal for a Python script of a product with neither interpreter nor host adapter. */
  public static ToolResult dccInterpreterMissing(String dcc) {
    return ToolResult.failure(
        ToolFailureCode.DCC_INTERPRETER_MISSING,
        "this skill's scripts are written for '"
            + dcc
            + "' and need its Python interpreter, which is not configured; the machine's own"
            + " Python is not used for them",
        "serve with --dcc-python "
            + dcc
            + "=/path/to/its/python, or install a host adapter plugin for '"
            + dcc
            + "'");
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // A script that wrote into the package folder; the rest is left for the OS to clean.
    }
  }

  private Attempt start(
      Path script,
      Path workDir,
      JsonNode arguments,
      Integer timeoutSecs,
      ToolContext context,
      String interpreter,
      boolean python,
      Path compat,
      ObjectNode answers) {
    List<String> command = new ArrayList<>();
    command.add(interpreter);
    command.add(script.toString());
    command.addAll(flags(arguments));
    Duration timeout =
        timeoutSecs != null ? Duration.ofSeconds(timeoutSecs) : policy.defaultTimeout();
    if (refusing) {
      return new Attempt(stoppingResult(script), Map.of());
    }
    String marker = markerPrefix + "-" + runNumbers.incrementAndGet();
    Process process;
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
      pb.environment().clear();
      pb.environment().putAll(environment);
      pb.environment().put("SKILLPORT_SKILL_DIR", workDir.toString());
      pb.environment().put(ProcessTree.VARIABLE, marker);
      pb.environment().put(INPUT_RESPONSES_ENV, answers.toString());
      if (python) {
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
      }
      if (compat != null) {
        pb.environment().put(CANCEL_FILE_ENV, compat.resolve(CANCEL_FILE).toString());
        String passed = environment.get("PYTHONPATH");
        pb.environment()
            .put(
                "PYTHONPATH",
                compat
                    + (passed == null || passed.isEmpty()
                        ? ""
                        : java.io.File.pathSeparator + passed));
      }
      process = pb.start();
    } catch (IOException e) {
      return new Attempt(
          ToolResult.failure(
              ToolFailureCode.SCRIPT_START_FAILED,
              "could not start " + interpreter + ": " + e.getMessage(),
              "check that " + interpreter + " is installed and on PATH"),
          Map.of());
    }
    ProcessTree tree = new ProcessTree(process, marker);
    running.add(tree);
    ScriptRuns recorded = runs;
    if (recorded != null) {
      recorded.started(process.pid(), process.info().startInstant().orElse(null), marker);
    }
    try {
      Path cancelFile = compat == null ? null : compat.resolve(CANCEL_FILE);
      return await(process, tree, script, workDir, arguments, timeout, context, cancelFile);
    } finally {
      running.remove(tree);
      if (recorded != null) {
        recorded.ended(marker);
      }
    }
  }

  private Attempt await(
      Process process,
      ProcessTree tree,
      Path script,
      Path workDir,
      JsonNode arguments,
      Duration timeout,
      ToolContext context,
      Path cancelFile) {
    ScriptStderr stderr = new ScriptStderr(context, policy.maxStderr());
    Capture stdout = new Capture(policy.maxStdout());
    Future<?> out =
        pumps.submit(
            () -> {
              stdout.read(process.getInputStream());
              return null;
            });
    Future<?> err =
        pumps.submit(
            () -> {
              stderr.read(process.getErrorStream());
              return null;
            });
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(JSON.writeValueAsBytes(arguments));
    } catch (IOException ignored) {
      // The script may exit without reading its input; that is its choice.
    }
    boolean finished = false;
    boolean interrupted = false;
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!finished) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || context.isCancelled() || stopping) {
          break;
        }
        tree.track();
        finished = process.waitFor(Math.min(left, POLL.toNanos()), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      interrupted = true;
    }
    if (stopping) {
      // The server is shutting down: whether the kill reached the script first or this loop
      // noticed first, the call ends as stopped.
      tree.kill();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return new Attempt(stoppingResult(script), Map.of());
    }
    if (!finished) {
      boolean cancelled = interrupted || context.isCancelled();
      if (cancelled && cancelFile != null) {
        signalCancel(process, cancelFile);
      }
      tree.kill();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      String why = cancelled ? "cancelled" : "timed out after " + timeout.toSeconds() + " s";
      return new Attempt(
          ToolResult.failure(
              cancelled ? ToolFailureCode.SCRIPT_CANCELLED : ToolFailureCode.SCRIPT_TIMEOUT,
              script.getFileName() + " " + why + tailSuffix(stderr),
              cancelled ? null : "raise timeout_hint_secs if the tool needs longer"),
          Map.of());
    }
    // The script has exited: its result is what it printed. A child still writing gets a moment
    // to finish, then whatever the script left running is killed; that also closes the pipes a
    // child kept open. (The pipes reaching their end proves nothing: the JDK closes its side of
    // them when the script exits.)
    boolean ended = ended(out, err, PIPE_GRACE);
    int killed = tree.kill();
    if (killed > 0) {
      LOG.debug("{} left {} processes running; killed", script, killed);
    }
    if (!ended && !ended(out, err, AFTER_KILL)) {
      LOG.warn("{} left a process holding its output open that could not be ended", script);
    }
    Captured captured = stdout.snapshot();
    return new Attempt(
        ScriptResults.interpret(
            process.exitValue(), captured.text(), captured.truncated(), stderr.tail(), workDir),
        stderr.asks());
  }

  /**
   * Tells a cancelled script so through its cancel file ({@code check_cancelled()} raises then) and
   * gives it {@link #CANCEL_GRACE} to stop by itself before its tree is killed.
   */
  private static void signalCancel(Process process, Path cancelFile) {
    try {
      Files.writeString(cancelFile, "cancelled\n");
      process.waitFor(CANCEL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      LOG.debug("could not write the cancel file {}: {}", cancelFile, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The arguments as upstream's runner passes them on the command line, for argparse scripts:
   * {@code --key-with-dashes value} for each string (up to {@link #MAX_FLAG_BYTES}), number and
   * boolean ({@code true}/{@code false}); null, objects and arrays only on stdin.
   */
  static List<String> flags(JsonNode arguments) {
    List<String> flags = new ArrayList<>();
    arguments
        .properties()
        .forEach(
            e -> {
              JsonNode v = e.getValue();
              boolean scalar =
                  v.isNumber()
                      || v.isBoolean()
                      || (v.isTextual()
                          && v.asText().getBytes(StandardCharsets.UTF_8).length <= MAX_FLAG_BYTES);
              if (scalar) {
                flags.add("--" + e.getKey().replace('_', '-'));
                flags.add(v.isTextual() ? v.asText() : v.toString());
              }
            });
    return flags;
  }

  private static ToolResult stoppingResult(Path script) {
    return ToolResult.failure(
        ToolFailureCode.SCRIPT_CANCELLED,
        script.getFileName() + " was stopped: the server is shutting down",
        "call the tool again once the server is back");
  }

  /** Whether both output pumps reached the end of their streams within {@code wait}. */
  private static boolean ended(Future<?> out, Future<?> err, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    for (Future<?> f : List.of(out, err)) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (ExecutionException e) {
        // The stream failed; what was read before is kept.
      }
    }
    return true;
  }

  /**
   * Stops running scripts for a server that shuts down: new runs are refused at once; runs still
   * going after {@code grace} have their process trees killed (their calls end as cancelled), and
   * whatever processes this runner's scripts left behind are killed too. Waits up to {@code grace}
   * plus two seconds in all.
   */
  public void close(Duration grace) {
    refusing = true;
    long deadline = System.nanoTime() + grace.toNanos();
    while (!running.isEmpty() && System.nanoTime() < deadline) {
      sleep(POLL);
    }
    stopping = true;
    int killed = 0;
    for (ProcessTree tree : List.copyOf(running)) {
      killed += tree.kill();
    }
    if (runNumbers.get() > 0) {
      // Only a script this runner started can have left a process carrying its marker; a server
      // that ran none skips reading every process's environment.
      killed += ProcessTree.killMarked(markerPrefix);
    }
    if (killed > 0) {
      LOG.info("stopped {} script processes", killed);
    }
    // The runs return once their processes are gone, removing their temporary folders.
    long end = System.nanoTime() + AFTER_KILL.toNanos();
    while (!running.isEmpty() && System.nanoTime() < end) {
      sleep(POLL);
    }
    pumps.shutdownNow();
  }

  /** {@link #close(Duration)} with a grace of half a second, for a server asked to stop. */
  @Override
  public void close() {
    close(Duration.ofMillis(500));
  }

  private static void sleep(Duration d) {
    try {
      TimeUnit.NANOSECONDS.sleep(d.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void copy(Map<String, String> from, String name, Map<String, String> to) {
    String value = from.get(name);
    if (value != null) {
      to.put(name, value);
    }
  }

  private static String tailSuffix(ScriptStderr stderr) {
    String tail = tail(stderr.tail(), 2000);
    return tail.isBlank() ? "" : ": " + tail;
  }

  private static String tail(String text, int max) {
    String t = text.strip();
    return t.length() <= max ? t : "…" + t.substring(t.length() - max);
  }

  /**
   * Stdout as it is read: at most {@code max} bytes kept (the rest drained), readable at any time,
   * so the output a script printed is there even when a child keeps the pipe open.
   */
  private static final class Capture {
    private final int max;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private boolean truncated;

    Capture(int max) {
      this.max = max;
    }

    void read(InputStream in) throws IOException {
      byte[] buf = new byte[8192];
      int n;
      while ((n = in.read(buf)) >= 0) {
        synchronized (this) {
          int room = max - kept.size();
          if (room > 0) {
            kept.write(buf, 0, Math.min(room, n));
          }
          if (n > room) {
            truncated = true;
          }
        }
      }
    }

    synchronized Captured snapshot() {
      return new Captured(kept.toString(StandardCharsets.UTF_8), truncated);
    }
  }

  private record Captured(String text, boolean truncated) {}
}
