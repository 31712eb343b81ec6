package dev.skillport.mcp.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * One open {@code text/event-stream} response. Any thread may queue events; a single flusher writes
 * them in order without holding a server thread, and completes the exchange when the stream is
 * closed or the client goes away.
 */
final class SseStream {
  private final Response response;
  private final Callback exchange;
  private final int maxQueued;
  private final Runnable onClosed;
  private final Object lock = new Object();
  private final ArrayDeque<ByteBuffer> queue = new ArrayDeque<>();
  private final Flusher flusher = new Flusher();
  private final AtomicBoolean closedNotified = new AtomicBoolean();
  private boolean closing;
  private boolean lastWritten;
  private volatile boolean open = true;

  SseStream(Response response, Callback exchange, int maxQueued, Runnable onClosed) {
    this.response = response;
    this.exchange = exchange;
    this.maxQueued = maxQueued;
    this.onClosed = onClosed;
  }

  /** Sets the status and headers of an event stream; call before the first event. */
  static void begin(Response response) {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    // Tells buffering reverse proxies to pass events through at once.
    response.getHeaders().put("X-Accel-Buffering", "no");
  }

  /** Queues a message event; false when the stream is closed or the client is too slow. */
  boolean event(String id, String json) {
    return enqueue("id: " + id + "\ndata: " + json + "\n\n");
  }

  /** Queues a message event without an id (the stateless era's streams are not resumable). */
  boolean data(String json) {
    return enqueue("data: " + json + "\n\n");
  }

  /** Queues a priming event (an id and empty data) that lets the client resume from here. */
  boolean prime(String id, long retryMillis) {
    return enqueue("id: " + id + "\nretry: " + retryMillis + "\ndata: \n\n");
  }

  /** Queues a comment line, which clients ignore; it keeps idle connections and proxies alive. */
  boolean comment(String text) {
    return enqueue(": " + text + "\n\n");
  }

  /** Ends the stream once the queued events are written. */
  void close() {
    synchronized (lock) {
      closing = true;
    }
    flusher.iterate();
  }

  /** Drops the stream at once (client gone, or shutdown). */
  void abort(Throwable cause) {
    flusher.abort(cause);
  }

  boolean isOpen() {
    return open;
  }

  private boolean enqueue(String text) {
    synchronized (lock) {
      if (closing || !open) {
        return false;
      }
      if (queue.size() >= maxQueued) {
        closing = true;
        queue.clear();
      } else {
        queue.add(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
      }
    }
    flusher.iterate();
    return !closing;
  }

  private void closed() {
    open = false;
    if (closedNotified.compareAndSet(false, true)) {
      onClosed.run();
    }
  }

  private final class Flusher extends IteratingCallback {
    @Override
    protected Action process() {
      ByteBuffer next;
      boolean last = false;
      synchronized (lock) {
        next = queue.poll();
        if (next == null) {
          if (!closing) {
            return Action.IDLE;
          }
          if (lastWritten) {
            return Action.SUCCEEDED;
          }
          lastWritten = true;
          last = true;
          next = BufferUtil.EMPTY_BUFFER;
        }
      }
      response.write(last, next, this);
      return Action.SCHEDULED;
    }

    @Override
    protected void onCompleteSuccess() {
      closed();
      exchange.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
      synchronized (lock) {
        closing = true;
        queue.clear();
      }
      closed();
      exchange.failed(cause);
    }
  }
}
