package dev.skillport.mcp.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps connections that send nothing useful from holding the server.
 *
 * <p>A connection with no request in progress must complete a request's headers within the header
 * timeout of opening, or of its previous request ending; otherwise it is closed. Jetty's idle
 * timeout alone restarts with every byte, so a client trickling a header a byte every few seconds
 * was never closed. A connection whose request is being handled (a long call, an event stream) is
 * not timed here, nor is a kept-alive connection resting between requests: one that has sent no
 * byte since its last request ended waits under Jetty's idle timeout, so that a client reusing a
 * pooled connection is not refused at the moment it writes. Nor is a connection whose bytes have
 * arrived but wait for a thread to read them ({@link TimedEndPoint}): time queued inside a busy
 * server is the server's, not the client's.
 *
 * <p>Open connections are capped below the process's file-descriptor limit. Past the cap, the
 * connection that has waited longest on its client without a request in progress is closed to make
 * room, so a flood of idle or trickling connections cannot keep a new client out; when none waits
 * on its client, the newcomer is kept just long enough to answer its request with 503 and {@code
 * Retry-After}. The transport bounds accepted connections {@value #OVERFLOW} above the cap with
 * Jetty's {@code NetworkConnectionLimit}, which counts them as they are accepted (before this guard
 * hears of them) and pauses accepting, so descriptors never run out and no client is closed
 * unanswered.
 */
final class ConnectionGuard implements Connection.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);

  /** Descriptors left for everything but connections: jars, skill files, script pipes, stores. */
  private static final long RESERVED_DESCRIPTORS = 512;

  /** Connections accepted past the cap, to be answered 503, before accepting pauses. */
  static final int OVERFLOW = 256;

  private final int maxConnections;
  private final long headerTimeoutNanos;
  private final Map<Connection, Tracked> open = new ConcurrentHashMap<>();

  /**
   * One open connection: how many of its requests are in progress, since when it is idle, and how
   * many bytes it had sent when its last request ended (-1 before its first request).
   */
  private static final class Tracked {
    final AtomicInteger busy = new AtomicInteger();
    volatile long idleSince = System.nanoTime();
    volatile long bytesInWhenIdle = -1;

    /** Opened past the cap with no room made: its request is answered 503. */
    volatile boolean overflow;

    /** Kept alive after a request and silent since: not a client trickling a header. */
    boolean resting(Connection connection) {
      long mark = bytesInWhenIdle;
      return mark >= 0 && connection.getBytesIn() == mark;
    }
  }

  /** What a request on a connection opened past the cap is answered with. */
  private final Handler overflowAnswer;

  ConnectionGuard(int maxConnections, java.time.Duration headerTimeout) {
    this(maxConnections, headerTimeout, Overload.answer(EdgeListener.NONE));
  }

  ConnectionGuard(int maxConnections, java.time.Duration headerTimeout, Handler overflowAnswer) {
    this.maxConnections = maxConnections;
    this.headerTimeoutNanos = headerTimeout.toNanos();
    this.overflowAnswer = overflowAnswer;
  }

  /**
   * A socket end point that knows when bytes have arrived that this server has not finished with:
   * set when the selector finds it readable while the connection waits for input, cleared once a
   * read finds nothing more (the connection then waits on its client again) or its request ends.
   * Cleared at the first byte read instead, a connection read after waiting long in a busy server's
   * queue would look late for the moment between reading its headers and handling them.
   */
  static final class TimedEndPoint extends SocketChannelEndPoint {
    private volatile boolean unread;

    TimedEndPoint(
        SocketChannel channel, ManagedSelector selector, SelectionKey key, Scheduler scheduler) {
      super(channel, selector, key, scheduler);
    }

    @Override
    public Runnable onSelected() {
      if (isFillInterested()) {
        unread = true;
      }
      return super.onSelected();
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
      int filled = super.fill(buffer);
      if (filled <= 0) {
        unread = false;
      }
      return filled;
    }

    boolean unread() {
      return unread;
    }

    void handled() {
      unread = false;
    }
  }

  /**
   * Whether a connection waiting on its client has shown it is slow or done, so that closing it
   * costs no one an answer: it rests after a request, or sent part of a request, or has been silent
   * half the header timeout. A connection just accepted whose bytes the selector has not yet seen
   * looks silent too; on a busy server there are thousands of them, each a client about to be
   * answered.
   */
  private boolean shownSlow(Connection connection, Tracked t, long now) {
    return t.resting(connection)
        || connection.getBytesIn() > Math.max(0, t.bytesInWhenIdle)
        || now - t.idleSince > headerTimeoutNanos / 2;
  }

  /** Whether the connection waits on its client: not on a thread of this server to read it. */
  private static boolean waitsOnClient(Connection connection) {
    return !(connection.getEndPoint() instanceof TimedEndPoint timed) || !timed.unread();
  }

  /**
   * A cap that leaves room below this process's descriptor limit: the limit less {@value
   * #RESERVED_DESCRIPTORS}, at least 64 and at most {@code ceiling}. The limit is read from {@code
   * /proc/self/limits}; where there is none, the cap is {@code ceiling}.
   */
  static int defaultCap(int ceiling) {
    long limit = descriptorLimit();
    if (limit <= 0) {
      return ceiling;
    }
    return (int) Math.max(64, Math.min(ceiling, limit - RESERVED_DESCRIPTORS));
  }

  /** The soft limit on open files, or -1 when unknown or unlimited. */
  static long descriptorLimit() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max open files")) {
          String soft = line.substring("Max open files".length()).strip().split("\\s+")[0];
          return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or not readable: no limit known.
    }
    return -1;
  }

  int maxConnections() {
    return maxConnections;
  }

  int openConnections() {
    return open.size();
  }

  @Override
  public void onOpened(Connection connection) {
    open.put(connection, new Tracked());
    if (open.size() > maxConnections) {
      makeRoom(connection);
    }
  }

  @Override
  public void onClosed(Connection connection) {
    open.remove(connection);
  }

  /** Closes connections idle past the header timeout; run every few hundred milliseconds. */
  void sweep() {
    long now = System.nanoTime();
    for (Map.Entry<Connection, Tracked> e : open.entrySet()) {
      Tracked t = e.getValue();
      if (t.busy.get() == 0
          && now - t.idleSince > headerTimeoutNanos
          && !t.resting(e.getKey())
          && waitsOnClient(e.getKey())) {
        close(e.getKey(), "no request within the header timeout");
      }
    }
    // Newcomers kept past the cap: slow connections that have since shown it make room.
    int excess = open.size() - maxConnections;
    if (excess > 0) {
      open.entrySet().stream()
          .filter(e -> evictable(e.getKey(), e.getValue(), now))
          .sorted(Comparator.comparingLong(e -> e.getValue().idleSince))
          .limit(excess)
          .forEach(e -> close(e.getKey(), "over the connection cap"));
    }
  }

  /** Whether closing the connection to make room costs no client an answer. */
  private boolean evictable(Connection connection, Tracked t, long now) {
    return t.busy.get() == 0 && waitsOnClient(connection) && shownSlow(connection, t, now);
  }

  /**
   * Past the cap: the connection idle longest on its client goes, or else {@code newcomer} is
   * marked to be answered 503. Connections opening at the same moment may pick the same one; only
   * one of them closes it, so the others pick again until each has closed one.
   */
  private void makeRoom(Connection newcomer) {
    while (true) {
      Connection oldest = null;
      long oldestSince = Long.MAX_VALUE;
      long now = System.nanoTime();
      for (Map.Entry<Connection, Tracked> e : open.entrySet()) {
        Tracked t = e.getValue();
        if (e.getKey() != newcomer && t.idleSince < oldestSince && evictable(e.getKey(), t, now)) {
          oldest = e.getKey();
          oldestSince = t.idleSince;
        }
      }
      if (oldest == null) {
        Tracked t = open.get(newcomer);
        if (t != null) {
          t.overflow = true;
        }
        return;
      }
      if (close(oldest, "over the connection cap")) {
        return;
      }
    }
  }

  /** Closes a tracked connection; false when another thread closed it first. */
  private boolean close(Connection connection, String why) {
    if (open.remove(connection) != null) {
      LOG.debug("closing a connection: {}", why);
      connection.getEndPoint().close();
      return true;
    }
    return false;
  }

  private void started(Connection connection) {
    Tracked t = open.get(connection);
    if (t != null) {
      t.busy.incrementAndGet();
    }
  }

  private void ended(Connection connection) {
    if (connection.getEndPoint() instanceof TimedEndPoint timed) {
      timed.handled();
    }
    Tracked t = open.get(connection);
    if (t != null) {
      t.idleSince = System.nanoTime();
      t.bytesInWhenIdle = connection.getBytesIn();
      t.busy.decrementAndGet();
    }
  }

  /** Wraps the server's handler so that the guard knows which connections have a request. */
  Handler.Wrapper tracking(Handler handler) {
    return new Handler.Wrapper(handler) {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        Connection connection = request.getConnectionMetaData().getConnection();
        Tracked tracked = open.get(connection);
        boolean overflow = tracked != null && tracked.overflow;
        if (overflow) {
          response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        // Answering, even 503, is a request in progress: not a connection to close for room.
        started(connection);
        boolean handled;
        try {
          Handler target = overflow ? overflowAnswer : getHandler();
          handled =
              target.handle(
                  request,
                  response,
                  new Callback.Nested(callback) {
                    @Override
                    public void succeeded() {
                      ended(connection);
                      super.succeeded();
                    }

                    @Override
                    public void failed(Throwable x) {
                      ended(connection);
                      super.failed(x);
                    }
                  });
        } catch (Exception | Error e) {
          ended(connection);
          throw e;
        }
        if (!handled) {
          ended(connection);
        }
        return handled;
      }
    };
  }
}
