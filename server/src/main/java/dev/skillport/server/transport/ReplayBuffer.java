package dev.skillport.server.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The newest events one session sent (or would have sent) on its event streams, each with its id
 * and the stream it belongs to, so a client reconnecting with {@code Last-Event-ID} gets what it
 * missed on that stream. Bounded: the oldest events are dropped first. Thread-safe.
 */
final class ReplayBuffer {
  /**
   * One event.
   *
   * @param data the JSON-RPC message, or {@code null} for a priming event
   */
  record Event(long id, String stream, String data) {}

  private final int capacity;
  private final ArrayDeque<Event> events = new ArrayDeque<>();

  ReplayBuffer(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative");
    }
    this.capacity = capacity;
  }

  synchronized void add(long id, String stream, String data) {
    if (capacity == 0) {
      return;
    }
    if (events.size() >= capacity) {
      events.removeFirst();
    }
    events.addLast(new Event(id, stream, data));
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
