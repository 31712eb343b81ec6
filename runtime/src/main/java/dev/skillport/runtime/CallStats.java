package dev.skillport.runtime;

import dev.skillport.api.owner.Principal;
import dev.skillport.model.status.AuditEntry;
import dev.skillport.model.status.ToolMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * What a server remembers of its tool calls in memory, whether or not an audit file is written: the
 * last calls in a fixed ring (the audit trail's entries) and, per tool name, counts and a duration
 * histogram since start. Both are lock-free on the call path.
 *
 * <p>Tool names come from clients, and unknown names are counted too, so at most {@value
 * #MAX_TOOLS} names get their own metrics; the rest share {@value #OTHER_TOOLS}.
 */
public final class CallStats {
  static final int MAX_TOOLS = 1024;
  static final String OTHER_TOOLS = "<other tools>";

  private final AtomicReferenceArray<Slot> ring;
  private final AtomicLong written = new AtomicLong();
  private final Map<String, DurationHistogram> perTool = new ConcurrentHashMap<>();
  // Per caller as well, so a caller's view holds its own calls only. Callers are the configured
  // tokens' principals (and the local caller), so this map stays as small as the token list.
  private final Map<String, Map<String, DurationHistogram>> perCaller = new ConcurrentHashMap<>();
  private final Clock clock;
  private final List<Consumer<AuditEntry>> listeners = new CopyOnWriteArrayList<>();

  /** Keeps the last {@code capacity} calls. */
  public CallStats(int capacity) {
    this(capacity, Clock.systemUTC());
  }

  CallStats(int capacity, Clock clock) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1");
    }
    this.ring = new AtomicReferenceArray<>(capacity);
    this.clock = clock;
  }

  /** Records one finished call of the local caller. */
  public void record(
      String sessionId, String tool, List<String> argumentNames, Duration took, String outcome) {
    record(sessionId, null, tool, argumentNames, took, outcome);
  }

  /**
   * Records one finished call.
   *
   * @param caller the principal that made it, or null for the local caller
   */
  public void record(
      String sessionId,
      String caller,
      String tool,
      List<String> argumentNames,
      Duration took,
      String outcome) {
    AuditEntry entry =
        new AuditEntry(clock.instant(), sessionId, tool, took, outcome, argumentNames, caller);
    long slot = written.getAndIncrement();
    ring.set((int) (slot % ring.length()), new Slot(slot, entry));
    histogram(perTool, tool).record(took.toNanos(), entry.isError());
    histogram(perCaller.computeIfAbsent(callerKey(caller), k -> new ConcurrentHashMap<>()), tool)
        .record(took.toNanos(), entry.isError());
    for (Consumer<AuditEntry> listener : listeners) {
      listener.accept(entry);
    }
  }

  /** Also tells {@code listener} of every call recorded from now on, on the calling thread. */
  public void addListener(Consumer<AuditEntry> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  private static String callerKey(String caller) {
    return caller == null ? "" : caller;
  }

  private static DurationHistogram histogram(Map<String, DurationHistogram> perTool, String tool) {
    DurationHistogram h = perTool.get(tool);
    if (h != null) {
      return h;
    }
    // The bound is checked before inserting; a few racing inserts may pass it, which is harmless.
    String key = perTool.size() < MAX_TOOLS ? tool : OTHER_TOOLS;
    return perTool.computeIfAbsent(key, k -> new DurationHistogram());
  }

  /** The kept calls {@code viewer} may see ({@link Principal#sees(String)}), newest first. */
  public List<AuditEntry> recent(Principal viewer) {
    return recent().stream().filter(e -> viewer.sees(e.caller())).toList();
  }

  /** The kept calls of every caller, newest first. */
  public List<AuditEntry> recent() {
    long end = written.get();
    long start = Math.max(0, end - ring.length());
    List<AuditEntry> out = new ArrayList<>((int) (end - start));
    for (long i = end - 1; i >= start; i--) {
      Slot s = ring.get((int) (i % ring.length()));
      // A slot claimed but not yet written holds nothing or the previous lap's entry: skip it.
      if (s != null && s.sequence() == i) {
        out.add(s.entry());
      }
    }
    return List.copyOf(out);
  }

  /** One written ring slot; the sequence number tells a fresh entry from a previous lap's. */
  private record Slot(long sequence, AuditEntry entry) {}

  /**
   * Per tool name, sorted by name: of {@code viewer}'s own calls, or of every caller's for an
   * operator.
   */
  public List<ToolMetrics> metrics(Principal viewer) {
    return viewer.operator()
        ? metrics()
        : metrics(perCaller.getOrDefault(callerKey(viewer.name()), Map.of()));
  }

  /** Per tool name over every caller's calls, sorted by name. */
  public List<ToolMetrics> metrics() {
    return metrics(perTool);
  }

  private static List<ToolMetrics> metrics(Map<String, DurationHistogram> perTool) {
    List<ToolMetrics> out = new ArrayList<>();
    perTool.forEach(
        (tool, h) -> {
          long calls = h.calls();
          out.add(
              new ToolMetrics(
                  tool,
                  calls,
                  Math.min(h.errors(), calls),
                  Duration.ofNanos(h.percentileNanos(0.50)),
                  Duration.ofNanos(h.percentileNanos(0.95)),
                  Duration.ofNanos(h.maxNanos())));
        });
    out.sort(Comparator.comparing(ToolMetrics::tool));
    return List.copyOf(out);
  }
}
