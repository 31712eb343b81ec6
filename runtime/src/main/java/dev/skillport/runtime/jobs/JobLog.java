package dev.skillport.runtime.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

/**
 * The log lines a job's call wrote through its context ({@code ::log LEVEL MESSAGE} lines of a
 * script, a handler's {@code log}), newest kept: at most {@link #MAX_LINES} lines and {@link
 * #MAX_CHARS} characters of messages; a longer message keeps its first {@link #MAX_LINE_CHARS}
 * characters. What was dropped is counted, so a reader knows the log is not whole. Thread-safe.
 */
public final class JobLog {
  /** Lines kept at most; older ones are dropped first. */
  public static final int MAX_LINES = 200;

  /** Characters of messages kept at most (64 Ki). */
  public static final int MAX_CHARS = 64 * 1024;

  /** Characters of one message kept at most; the rest is cut and marked with an ellipsis. */
  public static final int MAX_LINE_CHARS = 8 * 1024;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Deque<Line> lines = new ArrayDeque<>();
  private int chars;
  private long dropped;
  private boolean cut;

  private record Line(Instant at, String level, String message) {}

  /** Keeps one line, dropping the oldest ones past the caps. */
  public synchronized void add(Instant at, String level, String message) {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(level, "level");
    String text = message == null ? "" : message;
    if (text.length() > MAX_LINE_CHARS) {
      text = text.substring(0, MAX_LINE_CHARS - 1) + "…";
      cut = true;
    }
    lines.addLast(new Line(at, level, text));
    chars += text.length();
    while (lines.size() > MAX_LINES || chars > MAX_CHARS) {
      chars -= lines.removeFirst().message().length();
      dropped++;
    }
  }

  /**
   * The wire form: {@code {lines: [{at, level, message}], truncated, dropped_lines, kept}}; {@code
   * truncated} is true when older lines were dropped or a message was cut.
   */
  public synchronized ObjectNode toWire() {
    ObjectNode o = NODES.objectNode();
    ArrayNode array = o.putArray("lines");
    for (Line line : lines) {
      array
          .addObject()
          .put("at", line.at().toString())
          .put("level", line.level())
          .put("message", line.message());
    }
    o.put("truncated", dropped > 0 || cut);
    o.put("dropped_lines", dropped);
    o.put("kept", true);
    return o;
  }
}
