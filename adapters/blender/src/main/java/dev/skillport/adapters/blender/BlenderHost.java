package dev.skillport.adapters.blender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.adapters.blender.HostOutcome.Failed;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolFailureCode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one Blender running for the server and runs requests in it one at a time.
 *
 * <p>Callers queue requests; one dispatcher thread sends each to Blender's main thread and waits
 * for its answer, its deadline or its cancellation. A deadline or cancellation first asks the host
 * loop to stop the script (it raises an exception inside it, so Blender and the scene stay); a
 * script that does not stop within {@link #CANCEL_GRACE} (a long render, a native call) ends only
 * with Blender, which is then killed and started again at once. A Blender that exits by itself is a
 * crash: the call it ran fails with the exit and Blender's last output, and Blender is started
 * again after a {@link Backoff} delay that grows while crashes follow each other. Requests queued
 * meanwhile wait for the new Blender, unless the last attempt to start it failed.
 */
final class BlenderHost implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BlenderHost.class);

  /** How long Blender may take from launch to the host loop's hello. */
  static final Duration HANDSHAKE = Duration.ofSeconds(60);

  /** How long a script gets to stop after it was asked to, before Blender is restarted. */
  static final Duration CANCEL_GRACE = Duration.ofSeconds(3);

  /** A Blender that ran this long before it crashed starts the backoff over. */
  static final Duration STABLE = Duration.ofSeconds(60);

  /** Requests waiting beyond this are refused. */
  static final int QUEUE_LIMIT = 256;

  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  private final BlenderInstall install;
  private final String loop;
  private final Path workDir;
  private final Backoff backoff;
  private final Runnable sceneChanged;
  private final LinkedBlockingDeque<Work> queue = new LinkedBlockingDeque<>();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong calls = new AtomicLong();
  private final HostProcess.Listener listener = new ProcessEvents();
  private final Object lock = new Object();

  // Guarded by lock.
  private HostProcess process;
  private int failures;
  private long nextAttemptNanos;
  private boolean lastStartFailed;
  private String lastFailure;
  private int restarts;

  private volatile boolean closed;
  private volatile Job running;
  private Thread dispatcher;

  /**
   * @param loop the host loop's Python source
   * @param workDir a private folder for Blender's temporary files
   * @param sceneChanged told after every request that may have changed the scene, and after a
   *     restart (the scene is then new)
   */
  BlenderHost(
      BlenderInstall install, String loop, Path workDir, Backoff backoff, Runnable sceneChanged) {
    this.install = install;
    this.loop = loop;
    this.workDir = workDir;
    this.backoff = backoff;
    this.sceneChanged = sceneChanged;
  }

  /** Starts Blender and waits until it answers; then starts taking requests. */
  void start() throws BlenderUnavailableException {
    HostProcess first = HostProcess.launch(install, loop, workDir, HANDSHAKE, listener);
    synchronized (lock) {
      process = first;
    }
    dispatcher = new Thread(this::dispatch, "blender-dispatcher");
    dispatcher.setDaemon(true);
    dispatcher.start();
  }

  /** Whether Blender runs and answers now. */
  boolean isReady() {
    synchronized (lock) {
      return !closed && process != null && process.isAlive();
    }
  }

  /** The running Blender's process id, or -1 while there is none. */
  long pid() {
    synchronized (lock) {
      return process == null ? -1 : process.pid();
    }
  }

  /** One line on what runs, or why nothing does, for {@code server_status}. */
  String detail() {
    synchronized (lock) {
      StringBuilder out = new StringBuilder();
      if (closed) {
        return "stopped";
      }
      if (process != null) {
        out.append("Blender ")
            .append(install.version())
            .append(" (")
            .append(install.executable())
            .append("), pid ")
            .append(process.pid())
            .append(", up ")
            .append(Duration.between(process.startedAt(), Instant.now()).toSeconds())
            .append(" s, ")
            .append(calls.get())
            .append(" requests, ")
            .append(queue.size())
            .append(" queued");
        if (restarts > 0) {
          out.append(", restarted ").append(restarts).append(" times; last: ").append(lastFailure);
        }
        return out.toString();
      }
      long wait = Math.max(0, nextAttemptNanos - System.nanoTime());
      return (lastStartFailed ? "not running: " : "restarting after: ")
          + lastFailure
          + "; next attempt in "
          + TimeUnit.NANOSECONDS.toMillis(wait)
          + " ms";
    }
  }

  /**
   * Runs one request in Blender and waits for it.
   *
   * @param request the request without its id (the host assigns one)
   * @param what what the request is, for messages (a tool name)
   * @param changesScene whether subscribers to the scene hear about it afterwards
   * @throws InterruptedException when the calling thread is interrupted; the request is then
   *     cancelled
   */
  HostOutcome submit(
      ObjectNode request, String what, boolean changesScene, Duration timeout, ToolContext context)
      throws InterruptedException {
    if (closed) {
      return new Failed(ToolFailureCode.HOST_UNAVAILABLE, "the Blender adapter is stopped", null);
    }
    if (queue.size() >= QUEUE_LIMIT) {
      return new Failed(
          ToolFailureCode.HOST_BUSY,
          what + " was refused: " + queue.size() + " requests already wait for Blender",
          "try again when earlier calls have finished");
    }
    Job job = new Job(ids.incrementAndGet(), request, what, changesScene, timeout, context);
    queue.offerLast(job);
    try {
      while (true) {
        try {
          return job.outcome.get(POLL_NANOS, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          if (context.isCancelled()) {
            job.cancelRequested = true;
            if (job.abandon()) {
              queue.remove(job);
              return new Failed(
                  ToolFailureCode.HOST_CALL_CANCELLED,
                  what + " was cancelled before Blender started it",
                  null);
            }
          }
          if (System.nanoTime() - job.deadline > 0 && job.abandon()) {
            queue.remove(job);
            return new Failed(
                ToolFailureCode.HOST_CALL_TIMEOUT,
                what
                    + " timed out after "
                    + timeout.toSeconds()
                    + " s waiting for Blender (busy with earlier calls or restarting)",
                "try again; a call's timeout covers its wait in the queue");
          }
        } catch (ExecutionException e) {
          return new Failed(ToolFailureCode.HOST_CALL_FAILED, String.valueOf(e.getCause()), null);
        }
      }
    } catch (InterruptedException e) {
      job.cancelRequested = true;
      if (job.abandon()) {
        queue.remove(job);
      }
      throw e;
    }
  }

  @Override
  public void close() {
    HostProcess last;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      last = process;
      process = null;
    }
    queue.offerFirst(Wake.INSTANCE);
    if (last != null) {
      last.close(Duration.ofSeconds(3));
    }
    Thread d = dispatcher;
    if (d != null) {
      d.interrupt();
      try {
        d.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  // ---- the dispatcher thread

  private void dispatch() {
    ArrayDeque<Job> held = new ArrayDeque<>();
    while (!closed) {
      try {
        HostProcess current;
        long wait;
        boolean failedStart;
        synchronized (lock) {
          current = process;
          wait = nextAttemptNanos - System.nanoTime();
          failedStart = lastStartFailed;
        }
        if (current == null) {
          if (wait <= 0) {
            if (!attemptStart()) {
              failAll(held, unavailable());
            }
            continue;
          }
          Work w = queue.pollFirst(wait, TimeUnit.NANOSECONDS);
          if (w instanceof Job j) {
            if (failedStart) {
              j.finish(unavailable());
            } else {
              held.addLast(j);
            }
          }
          continue;
        }
        Job job = held.pollFirst();
        if (job == null) {
          Work w = queue.takeFirst();
          if (!(w instanceof Job j)) {
            continue;
          }
          job = j;
        }
        if (job.claim()) {
          run(current, job);
        }
      } catch (InterruptedException e) {
        if (!closed) {
          LOG.debug("the Blender dispatcher was interrupted while the host runs; continuing");
        }
      } catch (RuntimeException e) {
        LOG.error("the Blender dispatcher failed; it keeps serving", e);
      }
    }
    Failed stopped =
        new Failed(ToolFailureCode.HOST_UNAVAILABLE, "the Blender adapter stopped", null);
    failAll(held, stopped);
    Work w;
    while ((w = queue.pollFirst()) != null) {
      if (w instanceof Job j) {
        j.finish(stopped);
      }
    }
  }

  private static void failAll(ArrayDeque<Job> jobs, Failed failure) {
    Job j;
    while ((j = jobs.pollFirst()) != null) {
      j.finish(failure);
    }
  }

  private Failed unavailable() {
    synchronized (lock) {
      long wait = Math.max(0, nextAttemptNanos - System.nanoTime());
      return new Failed(
          ToolFailureCode.HOST_UNAVAILABLE,
          "Blender is not running: "
              + lastFailure
              + "; the next attempt to start it is in "
              + TimeUnit.NANOSECONDS.toSeconds(wait)
              + " s",
          "check the Blender executable (--blender PATH) and the server log");
    }
  }

  private boolean attemptStart() {
    String after;
    synchronized (lock) {
      after = lastFailure;
    }
    try {
      HostProcess started = HostProcess.launch(install, loop, workDir, HANDSHAKE, listener);
      synchronized (lock) {
        if (closed) {
          started.close(Duration.ofSeconds(3));
          return false;
        }
        process = started;
        lastStartFailed = false;
        restarts++;
      }
      LOG.info("Blender runs again (pid {}) after: {}", started.pid(), after);
      sceneChanged.run();
      return true;
    } catch (BlenderUnavailableException e) {
      Duration delay;
      synchronized (lock) {
        failures++;
        delay = backoff.delay(failures);
        nextAttemptNanos = System.nanoTime() + delay.toNanos();
        lastStartFailed = true;
        lastFailure = e.getMessage();
      }
      LOG.warn(
          "Blender did not start ({} failures in a row): {}; next attempt in {} ms",
          failures,
          e.getMessage(),
          delay.toMillis());
      return false;
    }
  }

  private void run(HostProcess target, Job job) throws InterruptedException {
    job.sentTo = target;
    running = job;
    HostOutcome outcome;
    try {
      job.request.put("id", job.id);
      try {
        target.send(job.request);
      } catch (IOException e) {
        // Blender is going away; its exit fails the answer in a moment.
        LOG.debug("request {} could not be sent: {}", job.id, e.toString());
      }
      outcome = await(target, job);
    } finally {
      running = null;
      calls.incrementAndGet();
    }
    job.finish(outcome);
    if (job.changesScene) {
      sceneChanged.run();
    }
  }

  private HostOutcome await(HostProcess target, Job job) throws InterruptedException {
    while (true) {
      long left = job.deadline - System.nanoTime();
      if (job.cancelRequested || left <= 0) {
        return stop(target, job);
      }
      try {
        return new HostOutcome.Answered(
            job.answer.get(Math.min(left, POLL_NANOS), TimeUnit.NANOSECONDS));
      } catch (TimeoutException e) {
        // Check the deadline and cancellation again.
      } catch (ExecutionException e) {
        return crashed(job, e.getCause().getMessage());
      }
    }
  }

  /** Asks the host loop to stop the running script; restarts Blender when it does not. */
  private HostOutcome stop(HostProcess target, Job job) throws InterruptedException {
    boolean cancelled = job.cancelRequested;
    String why =
        cancelled ? " was cancelled" : " timed out after " + job.timeout.toSeconds() + " s";
    try {
      target.send(JsonNodeFactory.instance.objectNode().put("op", "cancel").put("id", job.id));
    } catch (IOException e) {
      LOG.debug("cancel of request {} could not be sent: {}", job.id, e.toString());
    }
    ToolFailureCode code =
        cancelled ? ToolFailureCode.HOST_CALL_CANCELLED : ToolFailureCode.HOST_CALL_TIMEOUT;
    try {
      JsonNode answer = job.answer.get(CANCEL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      if (!answer.path("cancelled").asBoolean()) {
        return new HostOutcome.Answered(answer); // it finished just then
      }
      return new Failed(
          code,
          job.what
              + why
              + "; Blender stopped the script and keeps running (what the script changed before"
              + " it stopped stays in the scene)",
          cancelled ? null : "declare a larger timeout_hint_secs for this tool if it needs longer");
    } catch (TimeoutException e) {
      restartNow(
          target,
          "request "
              + job.id
              + " ("
              + job.what
              + ") did not stop within "
              + CANCEL_GRACE.toSeconds()
              + " s");
      return new Failed(
          code,
          job.what
              + why
              + "; the script did not stop within "
              + CANCEL_GRACE.toSeconds()
              + " s (a render or another native call cannot be interrupted), so Blender was"
              + " restarted and the open scene's unsaved changes are lost",
          cancelled ? null : "declare a larger timeout_hint_secs for this tool if it needs longer");
    } catch (ExecutionException e) {
      return crashed(job, e.getCause().getMessage());
    }
  }

  private Failed crashed(Job job, String how) {
    return new Failed(
        ToolFailureCode.HOST_CRASHED,
        "Blender exited while running "
            + job.what
            + ": "
            + how
            + "; it is being restarted and the open scene's unsaved changes are lost",
        "call the tool again once Blender is back (server_status shows it); if it crashes again,"
            + " the tool's arguments may be what crashes Blender");
  }

  /** Lets {@code target} go and kills it; the next Blender starts at once. */
  private void restartNow(HostProcess target, String reason) {
    synchronized (lock) {
      if (process == target) {
        process = null;
        nextAttemptNanos = System.nanoTime();
        lastStartFailed = false;
        lastFailure = reason;
      }
    }
    LOG.warn("restarting Blender (pid {}): {}", target.pid(), reason);
    target.kill();
  }

  // ---- events from Blender's reader threads

  private final class ProcessEvents implements HostProcess.Listener {
    @Override
    public void message(HostProcess from, JsonNode message) {
      Job job = running;
      if (job == null || job.sentTo != from || job.id != message.path("id").asLong(-1)) {
        LOG.debug("Blender (pid {}) sent a message for no running request", from.pid());
        return;
      }
      if ("progress".equals(message.path("op").asText())) {
        job.progress(message);
        return;
      }
      job.answer.complete(message);
    }

    @Override
    public void exited(HostProcess from, String how) {
      Job job = running;
      if (job != null && job.sentTo == from) {
        job.answer.completeExceptionally(new IOException(how));
      }
      Duration delay;
      synchronized (lock) {
        if (process != from || closed) {
          return; // a process already let go
        }
        process = null;
        lastStartFailed = false;
        lastFailure = how;
        if (from.endedOnPurpose()) {
          delay = Duration.ZERO;
        } else {
          boolean stable = Duration.between(from.startedAt(), Instant.now()).compareTo(STABLE) >= 0;
          failures = stable ? 1 : failures + 1;
          delay = backoff.delay(failures);
        }
        nextAttemptNanos = System.nanoTime() + delay.toNanos();
      }
      LOG.warn(
          "Blender crashed: {}; restarting in {} ms{}",
          how,
          delay.toMillis(),
          from.stderrTail().isBlank() ? "" : "; its last output:\n" + from.stderrTail());
      queue.offerFirst(Wake.INSTANCE);
      sceneChanged.run();
    }
  }

  // ---- queue entries

  private sealed interface Work permits Job, Wake {}

  /** Tells the dispatcher to look at the host's state again. */
  private enum Wake implements Work {
    INSTANCE
  }

  private static final class Job implements Work {
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int ABANDONED = 2;

    final long id;
    final ObjectNode request;
    final String what;
    final boolean changesScene;
    final Duration timeout;
    final long deadline;
    final ToolContext context;
    final CompletableFuture<HostOutcome> outcome = new CompletableFuture<>();
    final CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    final AtomicInteger state = new AtomicInteger(QUEUED);
    volatile boolean cancelRequested;
    volatile HostProcess sentTo;
    private double lastProgress = Double.NEGATIVE_INFINITY;

    Job(
        long id,
        ObjectNode request,
        String what,
        boolean changesScene,
        Duration timeout,
        ToolContext context) {
      this.id = id;
      this.request = request.deepCopy();
      this.what = what;
      this.changesScene = changesScene;
      this.timeout = timeout;
      this.deadline = System.nanoTime() + timeout.toNanos();
      this.context = context == null ? ToolContext.NONE : context;
    }

    /** The dispatcher takes the job, unless its caller gave up on it. */
    boolean claim() {
      return state.compareAndSet(QUEUED, RUNNING);
    }

    /** The caller gives up on a job the dispatcher has not taken. */
    boolean abandon() {
      return state.compareAndSet(QUEUED, ABANDONED);
    }

    void finish(HostOutcome result) {
      outcome.complete(result);
    }

    /** Passes a progress report on; reports that do not grow are dropped. */
    void progress(JsonNode message) {
      double value = message.path("progress").asDouble();
      if (value <= lastProgress) {
        return;
      }
      lastProgress = value;
      JsonNode total = message.path("total");
      JsonNode text = message.path("message");
      context.progress(
          value,
          total.isNumber() ? total.asDouble() : null,
          text.isTextual() ? text.asText() : null);
    }
  }
}
