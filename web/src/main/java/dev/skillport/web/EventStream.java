package dev.skillport.web;

import dev.skillport.api.owner.Principal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * One browser's {@code text/event-stream}: events are queued and written one at a time (Jetty takes
 * one write at a time per response); a browser that reads too slowly to keep up with {@link
 * #MAX_QUEUED} events, or that went away, loses its stream, and {@code EventSource} reconnects.
 */
final class EventStream {
  static final int MAX_QUEUED = 256;

  private final Response response;
  private final Callback done;
  private final Runnable onEnd;
  private final Principal viewer;
  private final Deque<String> queue = new ArrayDeque<>();
  private boolean writing;
  private boolean ended;

  EventStream(Response response, Callback done, Runnable onEnd, Principal viewer) {
    this.response = response;
    this.done = done;
    this.onEnd = onEnd;
    this.viewer = viewer;
  }

  /** Who watches: the stream carries that caller's jobs and runs only, or all to an operator. */
  Principal viewer() {
    return viewer;
  }

  /** Sends the response headers and a first comment, so the browser sees the stream open. */
  void open() {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put("X-Accel-Buffering", "no");
    enqueue(": open\nretry: 2000\n\n");
  }

  /** Queues one event. */
  void event(String name, String jsonData) {
    enqueue("event: " + name + "\ndata: " + jsonData.replace("\n", "\ndata: ") + "\n\n");
  }

  /** A comment that keeps proxies and the browser from timing the stream out. */
  void keepAlive() {
    enqueue(": keep-alive\n\n");
  }

  private void enqueue(String text) {
    synchronized (this) {
      if (ended) {
        return;
      }
      if (queue.size() >= MAX_QUEUED) {
        endLocked(false);
        return;
      }
      queue.add(text);
      if (writing) {
        return;
      }
      writing = true;
    }
    writeNext();
  }

  private void writeNext() {
    String next;
    synchronized (this) {
      next = queue.poll();
      if (next == null || ended) {
        writing = false;
        return;
      }
    }
    response.write(
        false,
        ByteBuffer.wrap(next.getBytes(StandardCharsets.UTF_8)),
        Callback.from(this::writeNext, failure -> fail()));
  }

  private void fail() {
    synchronized (this) {
      if (ended) {
        return;
      }
      ended = true;
      writing = false;
      queue.clear();
    }
    onEnd.run();
    done.failed(new java.io.EOFException("the browser closed the event stream"));
  }

  /** Ends the stream cleanly (the server stops). */
  void end() {
    synchronized (this) {
      endLocked(true);
    }
  }

  private void endLocked(boolean clean) {
    if (ended) {
      return;
    }
    ended = true;
    queue.clear();
    onEnd.run();
    if (clean && !writing) {
      response.write(true, BufferUtil.EMPTY_BUFFER, done);
    } else {
      done.failed(new java.io.EOFException("the event stream was dropped"));
    }
  }
}
