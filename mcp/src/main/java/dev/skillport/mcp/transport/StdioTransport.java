package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.mcp.Caller;
import dev.skillport.mcp.Era;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.ErrorMapper;
import dev.skillport.mcp.JsonRpcMessage;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.ModernCall;
import dev.skillport.mcp.RequestMeta;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over a stream pair: one JSON-RPC message per line in, one per line out. {@link #run()}
 * returns when the input ends, after answering the requests already read (for at most {@link
 * #DEFAULT_DRAIN}). Nothing but protocol messages is ever written to the output.
 *
 * <p>The opening message chooses the era for the whole process, as the specification's
 * backward-compatibility rules say: {@code initialize} opens a legacy session (the whole
 * conversation is that session, closed at the end); a request whose {@code _meta} names a modern
 * revision we speak makes every later request stateless (each must carry its own {@code _meta};
 * {@code notifications/cancelled} cancels one by id, a {@code subscriptions/listen} stream among
 * them). Until one of them succeeds, other messages get the legacy answers.
 */
public final class StdioTransport {
  private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

  /** Default cap on one line; a longer line is answered with an error and skipped. */
  public static final int DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

  /** Messages up to this size leave in one write. */
  private static final int OUTPUT_BUFFER_BYTES = 32 * 1024;

  /**
   * How long requests read before the end of input may still run: a client that writes its requests
   * and closes its end gets their answers, and one that hangs does not keep the process.
   */
  public static final Duration DEFAULT_DRAIN = Duration.ofSeconds(30);

  /** How long a call runs on the thread that read it before another thread takes over reading. */
  static final Duration HANDOFF = Duration.ofMillis(2);

  /** How long without a call before the hand-off watchdog sleeps until the next one. */
  private static final Duration WATCH_IDLE = Duration.ofMillis(100);

  /** At most this many threads run long calls they read; past it, calls go to the workers. */
  private static final int MAX_HANDED_OFF = 32;

  private final McpServer server;
  private final InputStream in;
  // Guarded by writeLock.
  private final BufferedOutputStream lines;
  private final int maxLineBytes;
  private final Object writeLock = new Object();
  // Guarded by writeLock.
  private final McpServer.MessageWriter writer;
  private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
  private final Map<String, ModernCall> modernCalls = new ConcurrentHashMap<>();
  private volatile boolean outputBroken;
  private volatile Era era;
  private McpSession session;
  // Used by one thread at a time: the one reading (a hand-off passes it on).
  private LineReader lineReader;
  private final CompletableFuture<Void> readingEnded = new CompletableFuture<>();
  // Threads still running a call after handing reading on.
  private final AtomicInteger handedOff = new AtomicInteger();
  // The call the reading thread runs. A call that handed reading on clears it only if it is still
  // its own: by then the next reader may be running a call of its own.
  private final AtomicReference<Handoff> running = new AtomicReference<>();
  private volatile Thread watchdog;
  private volatile boolean watchdogParked;
  private volatile boolean stopped;

  /**
   * A transport over {@code in} and {@code out} (usually {@code System.in} and {@code System.out}).
   */
  public StdioTransport(McpServer server, InputStream in, OutputStream out) {
    this(server, in, out, DEFAULT_MAX_LINE_BYTES);
  }

  /** A transport with a custom cap on the size of one inbound line. */
  public StdioTransport(McpServer server, InputStream in, OutputStream out, int maxLineBytes) {
    this.server = Objects.requireNonNull(server, "server");
    this.in = Objects.requireNonNull(in, "in");
    this.lines = new BufferedOutputStream(Objects.requireNonNull(out, "out"), OUTPUT_BUFFER_BYTES);
    this.writer = server.messageWriter();
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be positive");
    }
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Reads and answers messages until the input ends or fails, waits for the answers to requests
   * already read (up to {@link #DEFAULT_DRAIN}), then closes the session, which cancels calls still
   * running.
   *
   * <p>A request's call runs on the thread that read it, which saves waking a worker. Reading must
   * go on meanwhile (a cancellation, or the client's answer to a question the call asked, may come
   * next), so a call that runs longer than {@link #HANDOFF} hands reading to a new thread.
   */
  public void run() {
    McpSession session = server.openSession(this::write);
    this.session = session;
    LOG.debug("stdio session {} started", session.id());
    Thread watch = new Thread(this::watch, "stdio-handoff");
    watch.setDaemon(true);
    watchdog = watch;
    try (InputStream input = in) {
      lineReader = new LineReader(input, maxLineBytes);
      watch.start();
      if (!readLines()) {
        // Another thread reads now; this one ran a long call. The session ends when input does.
        readingEnded.join();
      }
      // Listen streams never end on their own; the input ending ends them.
      modernCalls.values().forEach(call -> call.cancel("end of input"));
      drain();
    } catch (IOException e) {
      LOG.warn("stdio input could not be closed", e);
    } finally {
      stopped = true;
      LockSupport.unpark(watch);
      server.closeSession(session);
      LOG.debug("stdio session {} ended", session.id());
    }
  }

  /**
   * Reads and dispatches lines on this thread until the input ends (true) or a call this thread
   * runs outlasts {@link #HANDOFF} and another thread takes over reading (false).
   */
  private boolean readLines() {
    try {
      while (!outputBroken) {
        LineReader.Line line = lineReader.next();
        if (line == null) {
          break;
        }
        if (line.tooLong()) {
          write(
              ErrorMapper.toResponse(
                  null,
                  new McpException(
                      ErrorKind.INVALID_REQUEST,
                      "Message exceeds " + maxLineBytes + " bytes and was skipped")));
          continue;
        }
        if (line.isBlank()) {
          continue;
        }
        JsonRpcMessage message = server.parse(line.bytes(), 0, line.length());
        if (era == null) {
          era = opening(message);
        }
        // A batch is left to the workers: its calls start together. So is a modern request: its
        // call is registered for cancellation only once dispatchModern returns.
        Handoff here =
            era != Era.MODERN
                    && message instanceof JsonRpcMessage.Request
                    && handedOff.get() < MAX_HANDED_OFF
                ? new Handoff()
                : null;
        CompletableFuture<?> answered =
            here == null
                ? dispatch(message)
                : McpServer.offeringThisThread(here, () -> dispatch(message));
        inFlight.add(answered);
        answered.whenComplete((ignored, failure) -> inFlight.remove(answered));
        if (here != null && here.handedOff()) {
          return false;
        }
      }
    } catch (IOException e) {
      LOG.warn("stdio input failed; ending the session", e);
    }
    readingEnded.complete(null);
    return true;
  }

  /**
   * {@link #readLines} on a thread reading was handed to. A failure that would have ended {@link
   * #run} on its own thread ends the session here too.
   */
  private void readLinesHandedOn() {
    try {
      readLines();
    } catch (RuntimeException | Error e) {
      LOG.error("stdio reading failed; ending the session", e);
      readingEnded.complete(null);
    }
  }

  private CompletableFuture<?> dispatch(JsonRpcMessage message) {
    return era == Era.MODERN ? modern(message) : legacy(session, message);
  }

  /**
   * One request's offer to run its call on the reading thread: at most one call, and the hand-off
   * of reading if that call runs long.
   */
  private final class Handoff implements McpServer.CallerRuns {
    private static final int OFFERED = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final int HANDED_OFF = 3;

    private final AtomicInteger state = new AtomicInteger(OFFERED);
    private volatile long started;

    @Override
    public boolean tryRun(Runnable call) {
      if (!state.compareAndSet(OFFERED, RUNNING)) {
        return false;
      }
      // Counted in flight from now: the input may end, read by another thread, while it runs.
      CompletableFuture<Void> here = new CompletableFuture<>();
      inFlight.add(here);
      started = System.nanoTime();
      running.set(this);
      if (watchdogParked) {
        LockSupport.unpark(watchdog);
      }
      try {
        call.run();
      } finally {
        running.compareAndSet(this, null);
        if (!state.compareAndSet(RUNNING, DONE)) {
          handedOff.decrementAndGet();
        }
        inFlight.remove(here);
        here.complete(null);
      }
      return true;
    }

    /** Called by the watchdog: hands reading to a new thread if the call still runs. */
    void handOffIfLong(long now) {
      if (now - started >= HANDOFF.toNanos() && state.compareAndSet(RUNNING, HANDED_OFF)) {
        handedOff.incrementAndGet();
        Thread reader = new Thread(StdioTransport.this::readLinesHandedOn, "stdio-reader");
        reader.setDaemon(true);
        reader.start();
      }
    }

    boolean handedOff() {
      return state.get() == HANDED_OFF;
    }
  }

  /**
   * Watches the call the reading thread runs. While calls come, it looks every half {@link
   * #HANDOFF}; after {@link #WATCH_IDLE} without one it sleeps until the next call wakes it.
   */
  private void watch() {
    long period = HANDOFF.toNanos() / 2;
    long lastSeen = System.nanoTime();
    while (!stopped) {
      long now = System.nanoTime();
      Handoff current = running.get();
      if (current != null) {
        lastSeen = now;
        current.handOffIfLong(now);
      }
      if (now - lastSeen > WATCH_IDLE.toNanos()) {
        watchdogParked = true;
        if (running.get() == null && !stopped) {
          LockSupport.park(this);
        }
        watchdogParked = false;
        lastSeen = System.nanoTime();
      } else {
        LockSupport.parkNanos(this, period);
      }
    }
  }

  /**
   * The era a first message opens: legacy for a successful {@code initialize}'s request, modern for
   * a request carrying a valid modern {@code _meta}, or still undecided (null).
   */
  private static Era opening(JsonRpcMessage message) {
    if (message instanceof JsonRpcMessage.Request request) {
      if (request.isInitialize()) {
        return Era.LEGACY;
      }
      if (RequestMeta.declaredVersion(request.params()).isPresent()) {
        try {
          RequestMeta.read(request.params());
          return Era.MODERN;
        } catch (McpException e) {
          return null;
        }
      }
    }
    return null;
  }

  private CompletableFuture<JsonNode> legacy(McpSession session, JsonRpcMessage message) {
    if (message instanceof JsonRpcMessage.Request request
        && era == null
        && RequestMeta.declaredVersion(request.params()).isPresent()) {
      // A modern-style opening we cannot serve: answer it as modern (unsupported version, bad
      // _meta) and let the next message decide.
      return modern(message);
    }
    return server
        .dispatch(session, message, this::write)
        .whenComplete(
            (response, failure) -> {
              if (failure != null) {
                write(ErrorMapper.toResponse(null, failure));
              } else if (response != null) {
                write(response);
              }
            });
  }

  private CompletableFuture<JsonNode> modern(JsonRpcMessage message) {
    if (message instanceof JsonRpcMessage.Request request) {
      ModernCall call = server.dispatchModern(request, this::write, Caller.LOCAL);
      String key = McpSession.requestKey(request.id());
      modernCalls.put(key, call);
      return call.response()
          .whenComplete(
              (response, failure) -> {
                modernCalls.remove(key, call);
                if (failure != null) {
                  write(ErrorMapper.toResponse(request.id(), failure, Era.MODERN));
                } else if (response != null) {
                  write(response);
                }
              });
    }
    if (message instanceof JsonRpcMessage.Notification notification) {
      if ("notifications/cancelled".equals(notification.method())) {
        JsonNode id = notification.params().get("requestId");
        if (id != null && (id.isTextual() || id.isIntegralNumber())) {
          ModernCall call = modernCalls.remove(McpSession.requestKey(id));
          if (call != null) {
            call.cancel(notification.params().path("reason").asText(null));
          }
        }
      }
      return CompletableFuture.completedFuture(null);
    }
    if (message instanceof JsonRpcMessage.Malformed malformed) {
      write(malformed.response());
    } else if (message instanceof JsonRpcMessage.Batch) {
      write(
          ErrorMapper.toResponse(
              null,
              new McpException(ErrorKind.INVALID_REQUEST, "2026-07-28 has no JSON-RPC batches"),
              Era.MODERN));
    }
    return CompletableFuture.completedFuture(null);
  }

  private void drain() {
    if (outputBroken || inFlight.isEmpty()) {
      return;
    }
    try {
      CompletableFuture.allOf(inFlight.toArray(CompletableFuture<?>[]::new))
          .get(DEFAULT_DRAIN.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn("{} requests still running at the end of input are cancelled", inFlight.size());
    } catch (ExecutionException e) {
      // Each answer, an error included, was written by its own completion.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void write(JsonNode message) {
    synchronized (writeLock) {
      if (outputBroken) {
        return;
      }
      try {
        // The message is serialized whole before any of it is written, then goes out with its line
        // end in one write: a reader woken by half a line only waits again (a larger message goes
        // out in more writes, still flushed once).
        writer.writeLine(message, lines);
      } catch (IOException e) {
        outputBroken = true;
        LOG.warn("stdio output failed; no further messages will be written", e);
      }
    }
  }

  /**
   * Splits a byte stream into lines without holding more than the cap of any one line. It reads the
   * stream in chunks into a buffer of its own and scans them for line ends, so a line costs one
   * copy rather than a call per byte.
   */
  static final class LineReader {
    private final InputStream in;
    private final int max;
    private final byte[] chunk = new byte[8192];
    private int pos;
    private int limit;
    private byte[] line = new byte[512];
    private int length;

    LineReader(InputStream in, int max) {
      this.in = in;
      this.max = max;
    }

    /**
     * The next line, or null at the end of input. The line's bytes are the reader's own buffer,
     * valid until the next call: the transport parses each line before it reads the next.
     */
    Line next() throws IOException {
      length = 0;
      boolean tooLong = false;
      boolean any = false;
      while (true) {
        if (pos == limit) {
          int n = in.read(chunk, 0, chunk.length);
          if (n < 0) {
            return any ? line(tooLong) : null;
          }
          pos = 0;
          limit = n;
          continue;
        }
        any = true;
        int end = pos;
        while (end < limit && chunk[end] != '\n') {
          end++;
        }
        int kept = Math.min(end - pos, max - length);
        if (kept > 0) {
          append(pos, kept);
        }
        tooLong |= kept < end - pos;
        if (end < limit) {
          pos = end + 1;
          return line(tooLong);
        }
        pos = limit;
      }
    }

    private void append(int from, int count) {
      if (length + count > line.length) {
        line = Arrays.copyOf(line, Math.max(length + count, Math.min(max, line.length * 2)));
      }
      System.arraycopy(chunk, from, line, length, count);
      length += count;
    }

    private Line line(boolean tooLong) {
      int n = length;
      if (n > 0 && line[n - 1] == '\r') {
        n--;
      }
      return new Line(line, n, tooLong);
    }

    record Line(byte[] bytes, int length, boolean tooLong) {
      boolean isBlank() {
        for (int i = 0; i < length; i++) {
          if (!Character.isWhitespace(bytes[i])) {
            return false;
          }
        }
        return true;
      }
    }
  }
}
