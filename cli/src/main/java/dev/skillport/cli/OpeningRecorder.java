package dev.skillport.cli;

import dev.skillport.cli.StartCache.Answer;
import dev.skillport.cli.StartCache.Fingerprint;
import dev.skillport.cli.StartCache.Head;
import dev.skillport.cli.StartCache.OpeningMessage;
import dev.skillport.cli.StartCache.Step;
import dev.skillport.mcp.JsonRpcMessage;
import dev.skillport.mcp.transport.StdioTransport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a stdio conversation's opening and keeps it in the {@link StartCache}: the messages from
 * {@code initialize} on, while they are ones whose answers depend only on the files, the command
 * and the message ({@link #KEPT_METHODS}), and each request's result.
 *
 * <p>After a start answered from the cache ({@link OpeningLane}), the server reads the answered
 * lines first; the recorder keeps its answers to them off the output and compares them with what
 * the lane sent. A listing that differs is followed by {@code notifications/tools/list_changed}, so
 * the client lists again; the opening is then kept anew.
 *
 * <p>The opening is kept only if the files it depends on looked the same when the server started
 * reading them as when the opening ended, and none had changed in the {@link
 * StartCache#RACY_MILLIS} before.
 */
final class OpeningRecorder implements StdioTransport.Tap {
  private static final Logger LOG = LoggerFactory.getLogger(OpeningRecorder.class);

  /** The methods whose messages an opening keeps, and a lane answers. */
  static final Set<String> KEPT_METHODS =
      Set.of("initialize", "notifications/initialized", "tools/list", "ping");

  /** How long an answered opening waits for its next message before it is kept as it stands. */
  static final Duration QUIET = Duration.ofSeconds(1);

  /** How long the end of input waits for the opening to be written. */
  private static final Duration LAST_SAVE = Duration.ofSeconds(2);

  private static final byte[] LIST_CHANGED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"
          .getBytes(StandardCharsets.UTF_8);

  private final StartCache cache;
  private final List<Path> files;
  private final Fingerprint before;
  private final long startedMillis;
  private final OpeningLane lane;
  // Used by the saver thread alone (and set before it starts).
  private StartCache.Opening saved;
  private final ScheduledThreadPoolExecutor saver = saver();

  // Guarded by this. The lane's answers, read once the lane has stopped (the server's first
  // write stops it); null until then. Empty without a lane.
  private Map<String, Step> laneAnswers;
  private final List<Step> steps = new ArrayList<>();
  private final Map<String, Integer> waiting = new HashMap<>();
  // The lines that answered the opening's requests, by step.
  private final Map<Integer, byte[]> answers = new HashMap<>();
  private boolean recording = true;
  private boolean listChanged;
  private ScheduledFuture<?> quiet;
  private volatile boolean active = true;

  /**
   * A recorder for a start that read {@code files}, which looked like {@code before} when it began
   * at {@code startedMillis}; {@code lane} is the lane that answered the opening from the cache, or
   * null.
   */
  OpeningRecorder(
      StartCache cache,
      List<Path> files,
      Fingerprint before,
      long startedMillis,
      OpeningLane lane) {
    this.cache = cache;
    this.files = List.copyOf(files);
    this.before = before;
    this.startedMillis = startedMillis;
    this.lane = lane;
    this.saved = lane == null ? null : lane.opening();
    this.laneAnswers = lane == null ? new HashMap<>() : null;
  }

  @Override
  public boolean active() {
    return active;
  }

  @Override
  public synchronized void read(byte[] line, int length, JsonRpcMessage message) {
    if (!recording) {
      return;
    }
    OpeningMessage read = OpeningMessage.parse(line, length);
    if (read == null
        || !KEPT_METHODS.contains(read.method())
        || (steps.isEmpty() && !read.method().equals("initialize"))
        || (read.id() != null && waiting.containsKey(read.id()))
        || steps.size() == StartCache.MAX_STEPS) {
      recording = false;
      settle();
      return;
    }
    if (read.id() != null) {
      waiting.put(read.id(), steps.size());
    }
    steps.add(new Step(read.method(), read.params(), null));
  }

  @Override
  public synchronized byte[] write(byte[] line) {
    if (laneAnswers == null) {
      // From here on the lane answers nothing more: what it answered is final.
      lane.takeOutput();
      laneAnswers = new HashMap<>(lane.answered());
      if (!laneAnswers.isEmpty()) {
        LOG.info(
            "answered {} requests of the opening from the start cache {}",
            laneAnswers.size(),
            cache.file());
      }
    }
    if (waiting.isEmpty() && laneAnswers.isEmpty()) {
      return line;
    }
    Head head = Head.parse(line);
    if (head == null) {
      return line;
    }
    Integer index = waiting.remove(head.id());
    if (index != null) {
      if (!head.result() || line.length > StartCache.MAX_RESULT_BYTES) {
        // An error, or a result too large to keep: the opening ends before this step.
        recording = false;
        steps.subList(index, steps.size()).clear();
        waiting.values().removeIf(i -> i >= index);
        answers.keySet().removeIf(i -> i >= index);
      } else {
        // Its result is cut out of the line when the opening is kept, off the output's path.
        answers.put(index, line);
      }
    }
    Step sent = laneAnswers.remove(head.id());
    byte[] out = line;
    if (sent != null) {
      out = null;
      Answer answer = Answer.parse(line);
      if (answer == null || !Arrays.equals(sent.result(), answer.result())) {
        if (sent.method().equals("tools/list")) {
          if (!listChanged) {
            listChanged = true;
            out = LIST_CHANGED;
          }
        } else {
          LOG.warn(
              "the start cache answered {} differently from this server; it is kept anew",
              sent.method());
        }
      }
    }
    settle();
    return out;
  }

  @Override
  public void ended() {
    synchronized (this) {
      recording = false;
      waiting.clear();
      settle();
      active = false;
      saver.shutdown();
    }
    // The process ends next: the opening is written first.
    try {
      saver.awaitTermination(LAST_SAVE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Called whenever the opening moved on. Once every request read so far is answered (and the
   * lane's answers all compared), the opening is kept: at once if it is over, else if the client
   * sends nothing more of it for {@link #QUIET}. Keeping is left to the saver thread, off the
   * output's path; after the opening is over the recorder stops looking.
   */
  private void settle() {
    if (!active || !waiting.isEmpty() || laneAnswers == null || !laneAnswers.isEmpty()) {
      return;
    }
    if (quiet != null) {
      quiet.cancel(false);
    }
    if (recording) {
      quiet = saver.schedule(this::keepIfQuiet, QUIET.toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    active = false;
    Draft draft = draft();
    if (draft != null) {
      saver.execute(() -> keep(draft));
    }
    saver.shutdown();
  }

  private void keepIfQuiet() {
    Draft draft;
    synchronized (this) {
      if (!active || !recording || !waiting.isEmpty()) {
        return;
      }
      draft = draft();
    }
    if (draft != null) {
      keep(draft);
    }
  }

  /**
   * The opening's steps up to the first request not answered, with the lines that answered them.
   */
  private record Draft(List<Step> steps, Map<Integer, byte[]> answers) {}

  /** The opening so far, or null when no step of it can be kept. */
  private Draft draft() {
    int whole = 0;
    while (whole < steps.size() && (answers.containsKey(whole) || !isRequest(steps.get(whole)))) {
      whole++;
    }
    return whole == 0 || before == null
        ? null
        : new Draft(List.copyOf(steps.subList(0, whole)), Map.copyOf(answers));
  }

  /**
   * Writes the opening to the cache unless it is what the file holds already, or the files it
   * depends on changed since the start read them, or had changed just before (on the saver thread
   * only).
   */
  private void keep(Draft draft) {
    List<Step> kept = new ArrayList<>(draft.steps().size());
    for (int i = 0; i < draft.steps().size(); i++) {
      Step step = draft.steps().get(i);
      byte[] line = draft.answers().get(i);
      if (line != null) {
        Answer answer = Answer.parse(line);
        if (answer == null || answer.result() == null) {
          return;
        }
        step = new Step(step.method(), step.params(), answer.result());
      }
      kept.add(step);
    }
    StartCache.Opening opening = new StartCache.Opening(files, before.digest(), List.copyOf(kept));
    if (saved != null && saved.sameAs(opening)) {
      return;
    }
    try {
      Fingerprint after = StartCache.fingerprint(files);
      if (after == null
          || !Arrays.equals(before.digest(), after.digest())
          || before.newestMillis() > startedMillis - StartCache.RACY_MILLIS) {
        LOG.debug(
            "the opening is not kept: the files it depends on changed about when it was read");
        return;
      }
      cache.save(opening);
      saved = opening;
      LOG.debug("kept the opening ({} messages) in {}", opening.steps().size(), cache.file());
    } catch (IOException | RuntimeException e) {
      LOG.warn("the start cache {} could not be written: {}", cache.file(), e.toString());
    }
  }

  private static ScheduledThreadPoolExecutor saver() {
    ScheduledThreadPoolExecutor saver =
        new ScheduledThreadPoolExecutor(
            1,
            task -> {
              Thread thread = new Thread(task, "skillport-start-cache");
              thread.setDaemon(true);
              return thread;
            });
    saver.setRemoveOnCancelPolicy(true);
    saver.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return saver;
  }

  private boolean isRequest(Step step) {
    return !step.method().startsWith("notifications/");
  }
}
