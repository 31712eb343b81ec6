package dev.skillport.mcp.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The newest events one session sent (or would have sent) on its event streams, each with its id
 * and the stream it belongs to, so a client reconnecting with {@code Last-Event-ID} gets what it
 * missed on that stream. Bounded by a count and by the characters held (so large tool results do
 * not pile up): the oldest events are dropped first, but the newest is always kept. Thread-safe.
 */
final class ReplayBuffer {
  /**
   * One event.
   *
   * @param data the JSON-RPC message, or {@code null} for a priming event
   */
  record Event(long id, String stream, String data) {}

  /** Characters of message data one session keeps for replay. */
  static final long MAX_CHARS = 4L << 20;

  private final int capacity;
  private final long maxChars;
  private final ArrayDeque<Event> events = new ArrayDeque<>();
  private long chars;

  ReplayBuffer(int capacity) {
    this(capacity, MAX_CHARS);
  }

  ReplayBuffer(int capacity, long maxChars) {
    if (capacity < 0 || maxChars < 0) {
      throw new IllegalArgumentException("capacity and maxChars must not be negative");
    }
    this.capacity = capacity;
    this.maxChars = maxChars;
  }

  synchronized void add(long id, String stream, String data) {
    if (capacity == 0) {
      return;
    }
    events.addLast(new Event(id, stream, data));
    chars += length(data);
    while (events.size() > capacity || (chars > maxChars && events.size() > 1)) {
      chars -= length(events.removeFirst().data());
    }
  }

  private static long length(String data) {
    return data == null ? 0 : data.length();
  }

  /** The stream event {@code id} was sent on, while the event is still held. */
  synchronized Optional<String> streamOf(long id) {
    for (Event event : events) {
      if (event.id() == id) {
        return Optional.of(event.stream());
      }
    }
    return Optional.empty();
  }

  /** The held message events of {@code stream} after event {@code id}, oldest first. */
  synchronized List<Event> after(String stream, long id) {
    List<Event> missed = new ArrayList<>();
    for (Event event : events) {
      if (event.id() > id && event.stream().equals(stream) && event.data() != null) {
        missed.add(event);
      }
    }
    return missed;
  }
}
