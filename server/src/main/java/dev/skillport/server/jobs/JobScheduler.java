package dev.skillport.server.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.tool.ToolContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs asynchronous calls as jobs on a fixed number of workers, records every state change in a
 * {@link JobStore} and reports it to the job's listener. Jobs that a previous run left pending or
 * running are marked {@link JobStatus#INTERRUPTED} when the scheduler starts.
 */
public final class JobScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobScheduler.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final JobStore store;
  private final Clock clock;
  private final ExecutorService workers;
  private final Map<String, Live> live = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** A scheduler with {@code workerCount} workers over {@code store}, recovering it first. */
  public JobScheduler(JobStore store, int workerCount) {
    this(store, workerCount, Clock.systemUTC());
  }

  JobScheduler(JobStore store, int workerCount, Clock clock) {
    if (workerCount < 1) {
      throw new IllegalArgumentException("workerCount must be at least 1");
    }
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            workerCount,
            workerCount,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "job-worker-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    this.workers = pool;
    recover();
  }

  /** The store behind this scheduler. */
  public JobStore store() {
    return store;
  }

  /**
   * Queues {@code work} as a new job and returns its pending record at once.
   *
   * @param tool the called tool, for status reports
   * @param sessionId the starting session, or null
   * @param parentId the parent job, or null; a job whose parent is already cancelled is cancelled
   * @param work the call; returns a {@code CallToolResult} ({@code isError} true makes it failed)
   * @param listener receives the wire status on every state change
   */
  public JobRecord submit(
      String tool,
      String sessionId,
      String parentId,
      Function<ToolContext, JsonNode> work,
      Consumer<ObjectNode> listener) {
    Objects.requireNonNull(work, "work");
    Objects.requireNonNull(listener, "listener");
    if (closed) {
      throw new IllegalStateException("the job scheduler is closed");
    }
    JobRecord record =
        JobRecord.pending(UUID.randomUUID().toString(), tool, sessionId, parentId, clock.instant());
    Live job = new Live(record, listener);
    live.put(record.id(), job);
    store.save(record);
    job.announce();
    boolean parentCancelled =
        parentId != null
            && status(parentId).map(p -> p.status() == JobStatus.CANCELLED).orElse(false);
    if (parentCancelled) {
      cancel(record.id());
      return job.record;
    }
    workers.execute(() -> execute(job, work));
    // The record as queued: a fast worker may already have moved the live one on.
    return record;
  }

  /** The current record of a job, live or stored. */
  public Optional<JobRecord> status(String id) {
    Live job = live.get(id);
    return job != null ? Optional.of(job.record) : store.find(id);
  }

  /**
   * Cancels a pending or running job and, recursively, its children. A running call sees the
   * cancellation through its context (a script is killed).
   *
   * @return whether the job was cancelled by this call (false when unknown or already finished)
   */
  public boolean cancel(String id) {
    Live job = live.get(id);
    boolean cancelled = job != null && job.finish(JobStatus.CANCELLED, "cancelled", null);
    for (Live child : live.values()) {
      if (id.equals(child.record.parentId())) {
        cancel(child.record.id());
      }
    }
    return cancelled;
  }

  /** Removes finished jobs that completed more than {@code age} ago; returns how many. */
  public int cleanup(Duration age) {
    Instant cutoff = clock.instant().minus(age);
    int removed = 0;
    for (JobRecord r : store.all()) {
      if (r.status().terminal()
          && r.completedAt() != null
          && !r.completedAt().isAfter(cutoff)
          && store.delete(r.id())) {
        removed++;
      }
    }
    return removed;
  }

  /** Jobs not yet finished. */
  public int activeJobs() {
    return live.size();
  }

  /**
   * Stops the workers: jobs still pending or running are marked interrupted (their scripts are
   * killed through cancellation), then the store is closed.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Live job : List.copyOf(live.values())) {
      job.finish(JobStatus.INTERRUPTED, "the server stopped before the job finished", null);
    }
    workers.shutdown();
    try {
      // Short: the jobs are marked already, and a signalled server has seconds to stop.
      workers.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }

  private void recover() {
    int interrupted = 0;
    Instant now = clock.instant();
    for (JobRecord r : store.all()) {
      if (!r.status().terminal()) {
        store.save(
            r.finished(
                JobStatus.INTERRUPTED,
                now,
                "the server stopped while the job was " + r.status().wire(),
                null));
        interrupted++;
      }
    }
    if (interrupted > 0) {
      LOG.info("{} unfinished jobs from a previous run are marked interrupted", interrupted);
    }
  }

  private void execute(Live job, Function<ToolContext, JsonNode> work) {
    if (!job.start()) {
      return;
    }
    JsonNode result;
    try {
      result = work.apply(job);
    } catch (RuntimeException e) {
      LOG.debug("job {} failed", job.record.id(), e);
      job.finish(JobStatus.FAILED, e.getClass().getSimpleName() + ": " + e.getMessage(), null);
      return;
    }
    if (result == null) {
      job.finish(JobStatus.FAILED, "the call returned no result", null);
    } else if (result.path("isError").asBoolean(false)) {
      job.finish(JobStatus.FAILED, errorText(result), result);
    } else {
      job.finish(JobStatus.COMPLETED, null, result);
    }
  }

  private static String errorText(JsonNode result) {
    JsonNode structured = result.path("structuredContent");
    if (structured.hasNonNull("message")) {
      return structured.path("code").asText("ERROR") + ": " + structured.get("message").asText();
    }
    JsonNode first = result.path("content").path(0);
    return first.path("text").asText("the call failed");
  }

  /** A job not yet finished: its record, cancellation flag and listener; its call's context. */
  private final class Live implements ToolContext {
    private final Consumer<ObjectNode> listener;
    private volatile JobRecord record;
    private volatile boolean cancelled;

    Live(JobRecord record, Consumer<ObjectNode> listener) {
      this.record = record;
      this.listener = listener;
    }

    synchronized boolean start() {
      if (record.status().terminal()) {
        return false;
      }
      record = record.running(clock.instant());
      save();
      announce();
      return true;
    }

    /** Moves to a terminal state once; later calls (a result after a cancel) are ignored. */
    boolean finish(JobStatus end, String why, JsonNode result) {
      synchronized (this) {
        if (record.status().terminal()) {
          return false;
        }
        if (end != JobStatus.COMPLETED && end != JobStatus.FAILED) {
          cancelled = true;
        }
        record = record.finished(end, clock.instant(), why, result);
        save();
      }
      live.remove(record.id());
      announce();
      return true;
    }

    private void save() {
      try {
        store.save(record);
      } catch (RuntimeException e) {
        LOG.warn("job {} could not be saved: {}", record.id(), e.toString());
      }
    }

    void announce() {
      try {
        listener.accept(record.toWire(false));
      } catch (RuntimeException e) {
        LOG.debug("job update for {} was not delivered", record.id(), e);
      }
    }

    @Override
    public void progress(double progress, Double total, String message) {
      ObjectNode p = NODES.objectNode().put("progress", progress);
      if (total != null) {
        p.put("total", total);
      }
      if (message != null) {
        p.put("message", message);
      }
      synchronized (this) {
        if (!record.status().terminal()) {
          record = record.withProgress(p, clock.instant());
        }
      }
    }

    @Override
    public void log(String level, String message) {
      LOG.debug("job {} [{}] {}", record.id(), level, message);
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }
  }
}
