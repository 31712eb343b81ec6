package dev.skillport.cli;

import dev.skillport.cli.StartCache.OpeningMessage;
import dev.skillport.cli.StartCache.Step;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers the opening of a stdio conversation from the {@link StartCache} while the server starts:
 * as long as the client's messages are the kept opening's, one for one (ids aside), each request
 * gets the kept result. At the first other message, or once the server writes, it stops; the server
 * then reads what it answered, as if it had come first, and writes none of its own answers to it
 * (an {@link OpeningRecorder} compares them with the kept ones), then everything after.
 *
 * <p>{@link #run()} runs on the thread that started the process; {@link #input()} is read by the
 * server's transport, and {@link #takeOutput()} is called by the recorder before the server's first
 * write. Only these touch the lane's state, under its monitor.
 */
final class OpeningLane {
  /** An opening line longer than this is not one we kept: the server reads it. */
  private static final int MAX_LINE = 64 * 1024;

  private final StartCache.Opening opening;
  private final InputStream in;
  private final OutputStream out;

  // The bytes read from in and not yet taken as a line; valid for the server once done.
  private byte[] buffer = new byte[8192];
  private int pos;
  private int limit;

  // Guarded by this.
  private final List<byte[]> answeredLines = new ArrayList<>();
  private final Map<String, Step> answered = new HashMap<>();
  private boolean taken;
  private boolean done;

  OpeningLane(StartCache.Opening opening, InputStream in, OutputStream out) {
    this.opening = opening;
    this.in = in;
    this.out = out;
  }

  /** Answers the kept opening's steps as they come; returns once the server reads on. */
  void run() {
    try {
      for (Step step : opening.steps()) {
        int end = nextLine();
        if (end < 0) {
          return;
        }
        synchronized (this) {
          if (taken || !answer(step, end)) {
            return;
          }
        }
      }
    } catch (IOException e) {
      // stdin or stdout failed: the server finds out on its own.
    } finally {
      synchronized (this) {
        done = true;
        notifyAll();
      }
    }
  }

  /**
   * Answers the line at {@code pos..end} if it is {@code step}'s message, and takes it; else leaves
   * it for the server.
   */
  private boolean answer(Step step, int end) throws IOException {
    int length = end > pos && buffer[end - 1] == '\r' ? end - 1 - pos : end - pos;
    byte[] line = Arrays.copyOfRange(buffer, pos, pos + length);
    OpeningMessage message = OpeningMessage.parse(line, line.length);
    if (message == null
        || !step.matches(message)
        || (message.id() != null && answered.containsKey(message.id()))) {
      return false;
    }
    if (message.id() != null) {
      out.write(StartCache.response(message.id(), step.result()));
      out.flush();
      answered.put(message.id(), step);
    }
    answeredLines.add(line);
    pos = end + 1;
    return true;
  }

  /**
   * The end of the next non-blank line in the buffer (its line end's index), reading more as
   * needed; -1 at the end of input or for a line longer than {@link #MAX_LINE}.
   */
  private int nextLine() throws IOException {
    int scanned = pos;
    while (true) {
      for (int i = scanned; i < limit; i++) {
        if (buffer[i] == '\n') {
          if (blank(pos, i)) {
            pos = i + 1;
            continue;
          }
          return i;
        }
      }
      scanned = limit;
      if (limit - pos >= MAX_LINE) {
        return -1;
      }
      if (limit == buffer.length) {
        if (pos > 0) {
          System.arraycopy(buffer, pos, buffer, 0, limit - pos);
          scanned -= pos;
          limit -= pos;
          pos = 0;
        } else {
          buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
      }
      int n = in.read(buffer, limit, buffer.length - limit);
      if (n < 0) {
        return -1;
      }
      limit += n;
    }
  }

  private boolean blank(int from, int to) {
    for (int i = from; i < to; i++) {
      if (!Character.isWhitespace(buffer[i])) {
        return false;
      }
    }
    return true;
  }

  /** The kept opening the lane answers. */
  StartCache.Opening opening() {
    return opening;
  }

  /**
   * Stops the lane writing: called before the server's first write, which waits for a line the lane
   * is writing to end.
   */
  synchronized void takeOutput() {
    taken = true;
  }

  /** The requests the lane answered, by raw id, with the step whose result it sent. */
  synchronized Map<String, Step> answered() {
    return Map.copyOf(answered);
  }

  /**
   * The server's stdin: the lines the lane answered, then, once the lane has stopped, everything it
   * did not take.
   */
  InputStream input() {
    return new InputStream() {
      private int next;
      private InputStream current = InputStream.nullInputStream();
      private boolean rest;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        while (true) {
          int n = current.read(b, off, len);
          if (n >= 0 || rest) {
            return n;
          }
          current = following();
        }
      }

      /** The next answered line; when none is left, the lane stops and hands over the rest. */
      private InputStream following() throws IOException {
        synchronized (OpeningLane.this) {
          if (next < answeredLines.size()) {
            byte[] line = answeredLines.get(next++);
            byte[] withEnd = Arrays.copyOf(line, line.length + 1);
            withEnd[line.length] = '\n';
            return new ByteArrayInputStream(withEnd);
          }
          taken = true;
          while (!done) {
            try {
              OpeningLane.this.wait();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IOException("interrupted while the opening was answered", e);
            }
          }
          rest = true;
          return new SequenceInputStream(new ByteArrayInputStream(buffer, pos, limit - pos), in);
        }
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }
}
