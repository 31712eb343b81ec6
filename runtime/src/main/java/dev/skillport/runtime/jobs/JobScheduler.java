package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.api.tool.ClientRequest;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
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
 *
 * <p>Queued jobs are taken in {@link FairOrder}, fair per caller. On a store shared by a fleet
 * ({@link JobStore#coordination}), a job submitted with its {@link StoredCall} is queued in the
 * store, and any instance whose {@link StoredCallRunner} can run it claims it when one of its
 * workers is free; a job without one (the rest of a call continued as a job) runs here.
 */
public final class JobScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobScheduler.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final JobStore store;
  private final Clock clock;
  private final ExecutorService workers;
  private final Map<String, Live> live = new ConcurrentHashMap<>();
  private final List<Consumer<JobRecord>> observers = new CopyOnWriteArrayList<>();
  // The logs of the jobs that finished last in this run, oldest first.
  private final Map<String, JobLog> finishedLogs =
      new java.util.LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, JobLog> eldest) {
          return size() > KEPT_LOGS;
        }
      };
  private volatile boolean closed;
  private final JobCoordination coordination;
  private final String instance;
  // Writes the progress reports a job made faster than PROGRESS_EVERY, once the interval is over.
  private final ScheduledExecutorService progressWriter;
  private final Semaphore free;
  // The jobs queued here (run by this instance only), oldest first; guarded by itself.
  private final java.util.List<Queued> queue = new java.util.ArrayList<>();
  // Jobs this instance queued in a shared store and no instance claimed yet, as they were handed.
  private final Map<String, Accepted> accepted = new ConcurrentHashMap<>();
  // The listeners of jobs this instance queued in a shared store, until they end: a job another
  // instance claimed is run there, and its changes reach this listener through the store's feed.
  private final Map<String, Consumer<ObjectNode>> watching =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>() {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Consumer<ObjectNode>> eldest) {
              return size() > WATCHED;
            }
          });
  // Held while a claimed job becomes live, so a cancel sees it queued or live, never in between.
  private final Object claiming = new Object();
  private volatile StoredCallRunner callRunner;
  private volatile Duration keyWindow = IdempotencyKey.DEFAULT_WINDOW;
  private boolean woken;
  private Instant lastSweep = Instant.EPOCH;
  // Whether the shared store may hold a job for this instance to claim: set when one is announced
  // (and at start), cleared as a claim begins, set again when it finds one. By claiming.
  private volatile boolean announced = true;
  // When the last claim began (System.nanoTime); by claiming.
  private long lastClaim;
  // When each caller's last job queued here started (a count), for the round-robin; by the queue.
  private final Map<String, Long> served = new HashMap<>();
  private long starts;
  private final Thread dispatcher;

  /** How long an idle instance on a shared store waits between claims without a notification. */
  static final long CLAIM_POLL_MS = 1_000;

  /**
   * The most queued jobs whose changes are relayed to the listener that queued them while another
   * instance runs them; the oldest are forgotten past it.
   */
  static final int WATCHED = 10_000;

  /** Finished jobs whose logs are kept, in memory, for {@link #logs}; older ones are forgotten. */
  static final int KEPT_LOGS = 256;

  /**
   * How often a running job's progress is written to the store at most: other instances and the
   * page read it from there. A later report within the interval is written once it is over.
   */
  static final Duration PROGRESS_EVERY = Duration.ofMillis(250);

  /** A scheduler with {@code workerCount} workers over {@code store}, recovering it first. */
  public JobScheduler(JobStore store, int workerCount) {
    this(store, workerCount, null, Clock.systemUTC());
  }

  /**
   * A scheduler whose jobs record {@code instance} as the instance running them; on a shared store
   * the store's own name for this instance ({@link JobCoordination#instance()}) is used instead.
   */
  public JobScheduler(JobStore store, int workerCount, String instance) {
    this(store, workerCount, instance, Clock.systemUTC());
  }

  JobScheduler(JobStore store, int workerCount, Clock clock) {
    this(store, workerCount, null, clock);
  }

  JobScheduler(JobStore store, int workerCount, String instance, Clock clock) {
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
    this.free = new Semaphore(workerCount);
    this.coordination = store.coordination().orElse(null);
    this.instance = coordination != null ? coordination.instance() : instance;
    this.progressWriter =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "job-progress");
              t.setDaemon(true);
              return t;
            });
    recover();
    if (coordination != null) {
      coordination.onQueued(
          () -> {
            announced = true;
            wake();
          });
      coordination.serve(
          new JobCoordination.Requests() {
            @Override
            public void cancel(String id) {
              LOG.debug("job {} cancelled through another instance", id);
              JobScheduler.this.cancel(id);
            }

            @Override
            public void answer(String id, JsonNode answers) {
              JobScheduler.this.answer(id, answers);
            }

            @Override
            public void changed(JobRecord job) {
              if (!live.containsKey(job.id())) {
                relay(job);
                tellObservers(job);
              }
            }
          });
    }
    dispatcher = new Thread(this::dispatch, "job-dispatcher");
    dispatcher.setDaemon(true);
    dispatcher.start();
  }

  /**
   * Runs the stored calls of queued jobs through {@code runner} from now on: on a shared store this
   * instance then queues its calls in the store and claims what it can run, its own and other
   * instances' alike.
   */
  public void runStoredCalls(StoredCallRunner runner) {
    this.callRunner = Objects.requireNonNull(runner, "runner");
    wake();
  }

  /**
   * Whether a call submitted with its {@link StoredCall} is queued in a shared store, for any
   * instance to claim ({@link #runStoredCalls} was called on a store a fleet shares).
   */
  public boolean queuesInStore() {
    return coordination != null && callRunner != null;
  }

  /**
   * How long a caller's idempotency key names the job it created ({@code --idempotency-window}).
   */
  public Duration keyWindow() {
    return keyWindow;
  }

  /** Sets {@link #keyWindow()}; positive. */
  public void keyWindow(Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("the idempotency window must be positive");
    }
    this.keyWindow = window;
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
   * @param work the call; its {@link JobResult} says whether the job completed or failed
   * @param listener receives the wire status on every state change
   * @throws StoreUnavailableException when the job cannot be recorded: nothing is queued
   */
  public JobRecord submit(
      String tool,
      String sessionId,
      String parentId,
      Function<ToolContext, JobResult> work,
      Consumer<ObjectNode> listener) {
    return submit(tool, sessionId, parentId, null, null, work, listener);
  }

  /**
   * Like {@link #submit(String, String, String, Function, Consumer)}, for a job owned by {@code
   * owner} whose call may ask its client through {@code client}.
   *
   * @param owner the authenticated caller, or null
   * @param client whether and what the job may ask its client (a stateless client answers a task's
   *     questions with {@code tasks/update}), or null when it may not ask
   */
  public JobRecord submit(
      String tool,
      String sessionId,
      String parentId,
      String owner,
      ClientLink client,
      Function<ToolContext, JobResult> work,
      Consumer<ObjectNode> listener) {
    return submit(tool, sessionId, parentId, owner, client, null, work, listener);
  }

  /**
   * Like {@link #submit(String, String, String, String, ClientLink, Function, Consumer)}, for a
   * call that {@code call} describes: on a shared store the job is queued there and any instance
   * that can run the call may claim it ({@code work} runs it when this instance does).
   *
   * @param call the stored call, or null when only {@code work} can run it
   */
  public JobRecord submit(
      String tool,
      String sessionId,
      String parentId,
      String owner,
      ClientLink client,
      StoredCall call,
      Function<ToolContext, JobResult> work,
      Consumer<ObjectNode> listener) {
    return submit(tool, sessionId, parentId, owner, client, call, null, work, listener);
  }

  /**
   * Like {@link #submit(String, String, String, String, ClientLink, StoredCall, Function,
   * Consumer)}, under the caller's idempotency {@code key}: when the key already names a job of the
   * caller within its window, nothing is queued and that job's record, as it is now, is returned.
   *
   * @param key the caller's idempotency key, or null
   * @throws IdempotencyKey.ReusedException when the key names a job of another call
   */
  public JobRecord submit(
      String tool,
      String sessionId,
      String parentId,
      String owner,
      ClientLink client,
      StoredCall call,
      IdempotencyKey key,
      Function<ToolContext, JobResult> work,
      Consumer<ObjectNode> listener) {
    Objects.requireNonNull(work, "work");
    Objects.requireNonNull(listener, "listener");
    if (closed) {
      throw new IllegalStateException("the job scheduler is closed");
    }
    JobRecord record =
        JobRecord.pending(
            UUID.randomUUID().toString(),
            tool,
            sessionId,
            parentId,
            owner,
            clock.instant(),
            instance);
    if (call != null && queuesInStore()) {
      return enqueue(record, call, key, client, work, listener);
    }
    if (key != null) {
      Optional<IdempotencyKey.Prior> prior = store.saveNew(record, key);
      if (prior.isPresent()) {
        return known(key, prior.get());
      }
    } else {
      try {
        store.save(record);
      } catch (StoreUnavailableException e) {
        // Not acknowledged, so never written: the store forgets the record it holds.
        store.delete(record.id());
        throw e;
      }
    }
    Live job = new Live(record, listener, client);
    live.put(record.id(), job);
    job.announce();
    boolean parentCancelled =
        parentId != null
            && status(parentId).map(p -> p.status() == JobStatus.CANCELLED).orElse(false);
    if (parentCancelled) {
      cancel(record.id());
      return job.record;
    }
    synchronized (queue) {
      queue.add(new Queued(job, work));
    }
    wake();
    // The record as queued: a fast worker may already have moved the live one on.
    return record;
  }

  /** Queues a job in the shared store, for whichever instance claims it. */
  private JobRecord enqueue(
      JobRecord record,
      StoredCall call,
      IdempotencyKey key,
      ClientLink client,
      Function<ToolContext, JobResult> work,
      Consumer<ObjectNode> listener) {
    // A free worker here that can run the call takes the job at once (stored already claimed);
    // else it waits in the store's queue for the first instance with a free worker that can.
    boolean now = !closed && callRunner.claimant().canRun(call) && free.tryAcquire();
    JobRecord stored = now ? record.claimed(clock.instant()) : record;
    if (!now) {
      accepted.put(record.id(), new Accepted(listener, client, work, record.createdAt()));
      watching.put(record.id(), listener);
    }
    Optional<IdempotencyKey.Prior> prior;
    try {
      prior = coordination.enqueue(stored, call, key);
    } catch (RuntimeException e) {
      unaccept(record.id(), now);
      throw e;
    }
    if (prior.isPresent()) {
      unaccept(record.id(), now);
      return known(key, prior.get());
    }
    announce(record, listener);
    if (now) {
      Live job = new Live(stored, listener, client);
      live.put(record.id(), job);
      run(new Next(job, work));
    }
    if (record.parentId() != null
        && status(record.parentId()).map(p -> p.status() == JobStatus.CANCELLED).orElse(false)) {
      cancel(record.id());
    }
    wake();
    return record;
  }

  /** Forgets a job that was not queued after all, and the worker it would have taken. */
  private void unaccept(String id, boolean tookWorker) {
    accepted.remove(id);
    watching.remove(id);
    if (tookWorker) {
      free.release();
    }
  }

  /**
   * The job a key named already, as it is now.
   *
   * @throws IdempotencyKey.ReusedException when it was made by another call
   */
  private JobRecord known(IdempotencyKey key, IdempotencyKey.Prior prior) {
    if (!prior.fingerprint().equals(key.fingerprint())) {
      throw new IdempotencyKey.ReusedException(key, prior);
    }
    LOG.debug("idempotency key of {} names job {} already", key.scope(), prior.jobId());
    return status(prior.jobId())
        .orElseThrow(() -> new IllegalStateException("job " + prior.jobId() + " is gone"));
  }

  /** Wakes the dispatcher: a job was queued or a worker is free. */
  private void wake() {
    synchronized (queue) {
      woken = true;
      queue.notifyAll();
    }
  }

  /** Hands queued jobs to free workers, in fair order, until the scheduler closes. */
  private void dispatch() {
    while (!closed) {
      try {
        free.acquire();
      } catch (InterruptedException e) {
        return;
      }
      Next next = null;
      try {
        next = closed ? null : next();
      } catch (RuntimeException e) {
        LOG.warn("no queued job taken: {}", e.toString());
      }
      if (next == null) {
        free.release();
        if (!awaitWork()) {
          return;
        }
        continue;
      }
      run(next);
    }
  }

  /** Hands {@code next} to a worker, whose permit the caller holds; the worker releases it. */
  private void run(Next next) {
    try {
      workers.execute(
          () -> {
            try {
              execute(next.job(), next.work());
            } finally {
              free.release();
              wake();
            }
          });
    } catch (RejectedExecutionException e) {
      free.release();
      next.job().finish(JobStatus.INTERRUPTED, "the server stopped before the job ran", null);
    }
  }

  /** Waits until woken, or the claim poll on a shared store; false once interrupted. */
  private boolean awaitWork() {
    synchronized (queue) {
      try {
        if (!woken && !closed) {
          queue.wait(coordination != null ? CLAIM_POLL_MS : 0);
        }
      } catch (InterruptedException e) {
        return false;
      }
      woken = false;
    }
    return true;
  }

  /** The next job to run: queued here first, else claimed from the shared store; null: none. */
  private Next next() {
    Next local = nextQueued();
    if (local != null) {
      return local;
    }
    StoredCallRunner runner = callRunner;
    if (coordination == null || runner == null) {
      return null;
    }
    synchronized (claiming) {
      // The store is asked when a job was announced since its last empty answer, or once a claim
      // poll's time has passed (a notification missed, a job its instance could not run in time);
      // not every time a worker comes free, which would be a claim transaction per job run.
      long now = System.nanoTime();
      if (!announced && now - lastClaim < TimeUnit.MILLISECONDS.toNanos(CLAIM_POLL_MS)) {
        return null;
      }
      // Cleared before asking, so an announcement during the claim is not lost.
      announced = false;
      lastClaim = now;
      JobCoordination.Claimed claimed = coordination.claim(runner.claimant()).orElse(null);
      if (claimed == null) {
        sweepAccepted();
        return null;
      }
      // There may be more.
      announced = true;
      // The instance that claims a job runs it.
      JobRecord record = claimed.job().onInstance(instance);
      Accepted handed = accepted.remove(record.id());
      watching.remove(record.id());
      Live job =
          new Live(
              record,
              handed == null ? update -> {} : handed.listener(),
              handed == null ? claimed.call().client() : handed.client());
      live.put(record.id(), job);
      Function<ToolContext, JobResult> work =
          handed != null
              ? handed.work()
              : context -> runner.run(claimed.call(), record.owner(), context);
      return new Next(job, work);
    }
  }

  /** Takes the queued job {@link FairOrder} puts first; null when none waits. */
  private Next nextQueued() {
    Map<String, Integer> running = new HashMap<>();
    for (Live job : live.values()) {
      if (job.record.status() == JobStatus.RUNNING) {
        running.merge(FairOrder.caller(job.record.owner()), 1, Integer::sum);
      }
    }
    synchronized (queue) {
      queue.removeIf(q -> q.job().record.status().terminal());
      List<FairOrder.Candidate> candidates =
          queue.stream()
              .map(
                  q ->
                      new FairOrder.Candidate(
                          q.job().record.id(), q.job().record.owner(), q.job().record.createdAt()))
              .toList();
      String id =
          FairOrder.next(candidates, running, served).map(FairOrder.Candidate::id).orElse(null);
      for (int i = 0; i < queue.size(); i++) {
        if (queue.get(i).job().record.id().equals(id)) {
          Queued q = queue.remove(i);
          served.put(FairOrder.caller(q.job().record.owner()), ++starts);
          return new Next(q.job(), q.work());
        }
      }
      return null;
    }
  }

  /** Forgets the handed work of jobs another instance claimed (or that ended), now and then. */
  private void sweepAccepted() {
    Instant now = clock.instant();
    if (accepted.isEmpty() || now.isBefore(lastSweep.plusSeconds(10))) {
      return;
    }
    lastSweep = now;
    for (Map.Entry<String, Accepted> e : accepted.entrySet()) {
      if (e.getValue().at().isBefore(now.minusSeconds(5))
          && store.find(e.getKey()).map(r -> r.status() != JobStatus.PENDING).orElse(true)) {
        accepted.remove(e.getKey());
      }
    }
  }

  /** A job queued here with its work. */
  private record Queued(Live job, Function<ToolContext, JobResult> work) {}

  /** A job to run now and its work. */
  private record Next(Live job, Function<ToolContext, JobResult> work) {}

  /** What a job queued in the shared store was handed with, for when this instance claims it. */
  private record Accepted(
      Consumer<ObjectNode> listener,
      ClientLink client,
      Function<ToolContext, JobResult> work,
      Instant at) {}

  /** The current record of a job, live or stored (by this instance or another on its store). */
  public Optional<JobRecord> status(String id) {
    Live job = live.get(id);
    if (job != null) {
      return Optional.of(job.record);
    }
    return store.find(id);
  }

  /**
   * The log lines job {@code id} wrote ({@link JobLog#toWire()}): kept in memory for the jobs this
   * run started, while they run and for the last {@link #KEPT_LOGS} that finished; empty for
   * another job.
   */
  public Optional<ObjectNode> logs(String id) {
    Live job = live.get(id);
    if (job != null) {
      return Optional.of(job.log.toWire());
    }
    synchronized (finishedLogs) {
      return Optional.ofNullable(finishedLogs.get(id)).map(JobLog::toWire);
    }
  }

  /**
   * The job's final record once it reaches a final state: completed already for a finished job;
   * empty for a job unknown here or run by another instance.
   */
  public Optional<CompletableFuture<JobRecord>> completion(String id) {
    Live job = live.get(id);
    if (job != null) {
      return Optional.of(job.done);
    }
    // Not live: finished here (the record is stored final), or not this scheduler's.
    Optional<JobRecord> stored = store.find(id);
    if (coordination != null && stored.isPresent() && !stored.get().status().terminal()) {
      // Queued in the shared store or run by another instance: its end is read from the store.
      CompletableFuture<JobRecord> end = new CompletableFuture<>();
      awaitStored(id, end);
      return Optional.of(end);
    }
    return stored.filter(r -> r.status().terminal()).map(CompletableFuture::completedFuture);
  }

  /** Completes {@code end} once job {@code id} ends here or in the store (read every 250 ms). */
  private void awaitStored(String id, CompletableFuture<JobRecord> end) {
    CompletableFuture.runAsync(
        () -> {
          if (end.isDone() || closed) {
            return;
          }
          Live job = live.get(id);
          if (job != null) {
            job.done.thenAccept(end::complete);
            return;
          }
          try {
            JobRecord now = store.find(id).orElse(null);
            if (now == null) {
              end.completeExceptionally(new IllegalStateException("job " + id + " is gone"));
              return;
            }
            if (now.status().terminal()) {
              end.complete(now);
              return;
            }
          } catch (RuntimeException e) {
            LOG.debug("job {} not read: {}", id, e.toString());
          }
          awaitStored(id, end);
        },
        CompletableFuture.delayedExecutor(250, TimeUnit.MILLISECONDS));
  }

  /**
   * Cancels a pending or running job and, recursively, its children. A running call sees the
   * cancellation through its context (a script is killed).
   *
   * @return whether the job was cancelled by this call (false when unknown or already finished)
   */
  public boolean cancel(String id) {
    // Descendants first, and the pending ones before the running ones: a cancelled job frees its
    // worker, which must not pick up a job about to be cancelled.
    List<Live> descendants = new java.util.ArrayList<>();
    java.util.Deque<String> parents = new java.util.ArrayDeque<>(List.of(id));
    while (!parents.isEmpty()) {
      String parent = parents.pop();
      for (Live child : live.values()) {
        if (parent.equals(child.record.parentId()) && !descendants.contains(child)) {
          descendants.add(child);
          parents.push(child.record.id());
        }
      }
    }
    descendants.sort(
        java.util.Comparator.comparing(d -> d.record.status() == JobStatus.PENDING ? 0 : 1));
    for (Live d : descendants) {
      d.finish(JobStatus.CANCELLED, "cancelled", null);
    }
    Live job = live.get(id);
    if (job == null && coordination != null) {
      Optional<JobRecord> ended;
      synchronized (claiming) {
        job = live.get(id);
        ended =
            job != null
                ? Optional.empty()
                : coordination.endQueued(
                    id, r -> r.finished(JobStatus.CANCELLED, clock.instant(), "cancelled", null));
      }
      if (ended.isPresent()) {
        Accepted handed = accepted.remove(id);
        watching.remove(id);
        announce(ended.get(), handed == null ? update -> {} : handed.listener());
        return true;
      }
      if (job == null) {
        return coordination.requestCancel(id);
      }
    }
    return job != null && job.finish(JobStatus.CANCELLED, "cancelled", null);
  }

  /**
   * Delivers the client's answers to questions a running job waits on. Answers to keys it is not
   * waiting for are ignored; the job goes on once every question it waits on is answered.
   *
   * @return whether the job is running (here, or on another instance of its store) and waiting
   */
  public boolean answer(String id, JsonNode responses) {
    Live job = live.get(id);
    if (job == null && coordination != null) {
      return coordination.requestAnswer(id, responses);
    }
    return job != null && job.answer(responses);
  }

  /** Removes finished jobs that completed more than {@code age} ago; returns how many. */
  public int cleanup(Duration age) {
    return cleanup(age, r -> true);
  }

  /** Removes those of the finished jobs older than {@code age} that {@code which} accepts. */
  public int cleanup(Duration age, java.util.function.Predicate<JobRecord> which) {
    Instant cutoff = clock.instant().minus(age);
    int removed = 0;
    for (JobRecord r : store.all()) {
      if (which.test(r)
          && r.status().terminal()
          && r.completedAt() != null
          && !r.completedAt().isAfter(cutoff)
          && store.delete(r.id())) {
        synchronized (finishedLogs) {
          finishedLogs.remove(r.id());
        }
        removed++;
      }
    }
    return removed;
  }

  /** Jobs not yet finished. */
  public int activeJobs() {
    return live.size();
  }

  /** The jobs not yet finished, by status ({@code pending}, {@code running}). */
  public Map<JobStatus, Integer> activeByStatus() {
    Map<JobStatus, Integer> counts = new EnumMap<>(JobStatus.class);
    for (Live job : live.values()) {
      counts.merge(job.record.status(), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * The most recently created jobs, newest first, at most {@code limit}: live ones as they are now,
   * the others as stored.
   */
  public List<JobRecord> recent(int limit) {
    Map<String, JobRecord> byId = new HashMap<>();
    for (JobRecord stored : store.all()) {
      byId.put(stored.id(), stored);
    }
    for (Live job : live.values()) {
      byId.put(job.record.id(), job.record);
    }
    return byId.values().stream()
        .sorted(Comparator.comparing(JobRecord::createdAt).reversed().thenComparing(JobRecord::id))
        .limit(Math.max(0, limit))
        .toList();
  }

  /** The instance this scheduler's jobs record as running them, or null. */
  public String instance() {
    return instance;
  }

  /**
   * Tells {@code observer} of every change of every job from now on (the record as it is after the
   * change: its state, and its progress at most every {@link #PROGRESS_EVERY}), besides the job's
   * own listener. On a shared store this includes the jobs other instances run.
   */
  public void addObserver(Consumer<JobRecord> observer) {
    observers.add(Objects.requireNonNull(observer, "observer"));
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
    wake();
    dispatcher.interrupt();
    for (Live job : List.copyOf(live.values())) {
      job.finish(JobStatus.INTERRUPTED, "the server stopped before the job finished", null);
    }
    workers.shutdown();
    progressWriter.shutdownNow();
    try {
      // Short: the jobs are marked already, and a signalled server has seconds to stop.
      workers.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }

  /**
   * Hands a change of a job another instance runs to the listener of the session that queued it
   * here ({@code notifications/$/dcc.jobUpdated}), until the job ends.
   */
  private void relay(JobRecord job) {
    Consumer<ObjectNode> listener =
        job.status().terminal() ? watching.remove(job.id()) : watching.get(job.id());
    if (listener != null) {
      try {
        listener.accept(job.toWire());
      } catch (RuntimeException e) {
        LOG.debug("job update for {} was not relayed", job.id(), e);
      }
    }
  }

  /** Tells {@code listener} and every observer of {@code now}. */
  private void announce(JobRecord now, Consumer<ObjectNode> listener) {
    try {
      listener.accept(now.toWire());
    } catch (RuntimeException e) {
      LOG.debug("job update for {} was not delivered", now.id(), e);
    }
    tellObservers(now);
  }

  private void recover() {
    int interrupted = 0;
    Instant now = clock.instant();
    for (JobRecord r : store.orphans()) {
      try {
        store.save(
            r.finished(
                JobStatus.INTERRUPTED,
                now,
                "the server stopped while the job was " + r.status().wire(),
                null));
      } catch (StoreUnavailableException e) {
        LOG.warn("job {} is marked interrupted in memory until the store can write", r.id());
      }
      interrupted++;
    }
    if (interrupted > 0) {
      LOG.info("{} unfinished jobs from a previous run are marked interrupted", interrupted);
    }
  }

  private void tellObservers(JobRecord now) {
    for (Consumer<JobRecord> observer : observers) {
      try {
        observer.accept(now);
      } catch (RuntimeException e) {
        LOG.debug("job observer failed on {}", now.id(), e);
      }
    }
  }

  private void execute(Live job, Function<ToolContext, JobResult> work) {
    if (!job.start()) {
      return;
    }
    JobResult result;
    try {
      job.runOn(Thread.currentThread());
      result = work.apply(job);
    } catch (RuntimeException e) {
      LOG.debug("job {} failed", job.record.id(), e);
      job.finish(JobStatus.FAILED, e.getClass().getSimpleName() + ": " + e.getMessage(), null);
      return;
    } catch (Error e) { // a failure of the server, not of the tool: the job must still end
      LOG.warn("job {} failed in the server", job.record.id(), e);
      job.finish(JobStatus.FAILED, "Internal error: " + e.getClass().getSimpleName(), null);
      return;
    } finally {
      // A cancel may have interrupted this pool thread; the next job must not inherit it.
      job.runOn(null);
      Thread.interrupted();
    }
    if (result == null) {
      job.finish(JobStatus.FAILED, "the call returned no result", null);
    } else if (result.failure() != null) {
      job.finish(JobStatus.FAILED, result.failure(), result);
    } else {
      job.finish(JobStatus.COMPLETED, null, result);
    }
  }

  /**
   * Whether and what a job may ask its client: the capabilities the client declared for the call
   * that started it. Questions park the job until the answers arrive ({@link #answer}).
   */
  @FunctionalInterface
  public interface ClientLink {
    /** Whether the client declared capability {@code name} (for example "elicitation"). */
    boolean supports(String name);
  }

  /** A job not yet finished: its record, cancellation flag and listener; its call's context. */
  private final class Live implements ToolContext {
    private final Consumer<ObjectNode> listener;
    private final ClientLink client;
    private final JobLog log = new JobLog();
    private final Map<String, ClientRequest> waiting = new java.util.LinkedHashMap<>();
    private final Map<String, JsonNode> answers = new java.util.HashMap<>();
    private int asked;
    private Thread worker;
    // When the progress was last written, and whether a later report waits for its turn.
    private Instant progressWritten = Instant.EPOCH;
    private boolean progressWaiting;
    private volatile JobRecord record;
    private volatile boolean cancelled;
    private final CompletableFuture<JobRecord> done = new CompletableFuture<>();

    Live(JobRecord record, Consumer<ObjectNode> listener, ClientLink client) {
      this.record = record;
      this.listener = listener;
      this.client = client;
    }

    /** The thread running the call, or null once it returned. */
    synchronized void runOn(Thread thread) {
      worker = thread;
    }

    @Override
    public boolean clientSupports(String name) {
      return client != null && client.supports(name);
    }

    /** A job acts for the caller that started it. */
    @Override
    public Principal principal() {
      return Principal.of(record.owner());
    }

    @Override
    public JsonNode request(String method, JsonNode params)
        throws ClientRequestException, InterruptedException {
      String key;
      synchronized (this) {
        key = "q" + (++asked);
      }
      return requestAll(Map.of(key, new ClientRequest(method, params))).get(key);
    }

    /**
     * Parks the job as waiting for input: its record shows the questions (a task reads {@code
     * input_required}) until {@link #answer} delivers every answer, or the job is cancelled.
     */
    @Override
    public Map<String, JsonNode> requestAll(Map<String, ClientRequest> requests)
        throws ClientRequestException, InterruptedException {
      if (client == null) {
        throw new ClientRequestException(
            ClientRequestException.Reason.UNSUPPORTED,
            "this job has no client to ask: only a task of a client that declared the Tasks"
                + " extension can ask");
      }
      for (ClientRequest request : requests.values()) {
        if (!client.supports(request.capability())) {
          throw new ClientRequestException(
              ClientRequestException.Reason.UNSUPPORTED,
              request.method()
                  + " needs a client that declared the '"
                  + request.capability()
                  + "' capability");
        }
      }
      synchronized (this) {
        for (Map.Entry<String, ClientRequest> e : requests.entrySet()) {
          if (!answers.containsKey(e.getKey())) {
            waiting.put(e.getKey(), e.getValue());
          }
        }
        publishWaiting();
        while (!cancelled && requests.keySet().stream().anyMatch(k -> !answers.containsKey(k))) {
          wait();
        }
        if (cancelled) {
          throw new InterruptedException("the job was cancelled while waiting for input");
        }
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        requests.keySet().forEach(k -> out.put(k, answers.get(k)));
        return out;
      }
    }

    /** Takes the client's answers to the questions the job waits on. */
    boolean answer(JsonNode responses) {
      synchronized (this) {
        if (record.status().terminal()) {
          return false;
        }
        responses
            .properties()
            .forEach(
                e -> {
                  if (waiting.remove(e.getKey()) != null) {
                    answers.put(e.getKey(), e.getValue());
                  }
                });
        publishWaiting();
        notifyAll();
        return true;
      }
    }

    /** Records what the job waits for (or that it waits for nothing) and tells the listener. */
    private void publishWaiting() {
      ObjectNode pending = NODES.objectNode();
      waiting.forEach(
          (key, request) -> {
            ObjectNode r = pending.putObject(key).put("method", request.method());
            r.set("params", request.params());
          });
      record = record.withInputRequests(pending, clock.instant());
      save();
      announce();
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
    boolean finish(JobStatus end, String why, JobResult result) {
      synchronized (this) {
        if (record.status().terminal()) {
          return false;
        }
        if (end != JobStatus.COMPLETED && end != JobStatus.FAILED) {
          cancelled = true;
          notifyAll();
          // A handler blocked in a sleep or a wait stops now rather than when it next checks.
          if (worker != null) {
            worker.interrupt();
          }
        }
        record = record.finished(end, clock.instant(), why, result);
        save();
      }
      synchronized (finishedLogs) {
        finishedLogs.put(record.id(), log);
      }
      live.remove(record.id());
      announce();
      done.complete(record);
      return true;
    }

    private void save() {
      try {
        store.save(record);
      } catch (StoreUnavailableException e) {
        LOG.debug("job {} is kept in memory until the store can write: {}", record.id(), e);
      } catch (RuntimeException e) {
        LOG.warn("job {} could not be saved: {}", record.id(), e.toString());
      }
    }

    void announce() {
      JobScheduler.this.announce(record, listener);
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
        if (record.status().terminal()) {
          return;
        }
        Instant now = clock.instant();
        record = record.withProgress(p, now);
        Instant due = progressWritten.plus(PROGRESS_EVERY);
        if (now.isBefore(due)) {
          if (!progressWaiting) {
            progressWaiting = true;
            long delay = Duration.between(now, due).toMillis();
            try {
              progressWriter.schedule(this::writeProgress, delay, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
              progressWaiting = false; // closing: the job ends, with its last progress
            }
          }
          return;
        }
      }
      writeProgress();
    }

    /** Writes the latest progress, for other instances and the page, and tells the observers. */
    private void writeProgress() {
      JobRecord now;
      synchronized (this) {
        progressWaiting = false;
        if (record.status().terminal()) {
          return;
        }
        progressWritten = clock.instant();
        save();
        now = record;
      }
      tellObservers(now);
    }

    @Override
    public void log(String level, String message) {
      LOG.debug("job {} [{}] {}", record.id(), level, message);
      log.add(clock.instant(), level == null ? "info" : level, message);
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }
  }
}
