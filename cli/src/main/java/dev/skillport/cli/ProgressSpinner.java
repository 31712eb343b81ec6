package dev.skillport.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A spinner on stderr for work that reports no progress of its own. It appears only after a delay,
 * so fast runs print nothing, and erases its line when stopped.
 */
final class ProgressSpinner {
  private static final String FRAMES = "|/-\\";
  private static final long FRAME_MILLIS = 120;

  private final PrintWriter err;
  private final String label;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private int frame;
  private int drawnWidth;

  private ProgressSpinner(PrintWriter err, String label, Duration delay, boolean enabled) {
    this.err = err;
    this.label = label;
    if (enabled) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "skillport-progress");
                t.setDaemon(true);
                return t;
              });
      ticker.scheduleAtFixedRate(this::draw, delay.toMillis(), FRAME_MILLIS, TimeUnit.MILLISECONDS);
    } else {
      ticker = null;
    }
  }

  /** Starts a spinner that draws after {@code delay}; when not {@code enabled} it never draws. */
  static ProgressSpinner start(PrintWriter err, String label, Duration delay, boolean enabled) {
    return new ProgressSpinner(err, label, delay, enabled);
  }

  private synchronized void draw() {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    String line =
        String.format(
            Locale.ROOT, "%c %s %.1fs", FRAMES.charAt(frame++ % FRAMES.length()), label, seconds);
    err.print('\r' + line);
    err.flush();
    drawnWidth = Math.max(drawnWidth, line.length());
  }

  /** Stops drawing and erases the spinner's line, leaving stderr as it was. */
  void stop() {
    if (ticker == null) {
      return;
    }
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (drawnWidth > 0) {
        err.print('\r' + " ".repeat(drawnWidth) + '\r');
        err.flush();
      }
    }
  }
}
