package dev.skillport.cli;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one {@code serve} run opened (catalog, stores, transports, temporary folders), closed once,
 * newest first: when the run returns, when its start fails half-way, or on SIGTERM or Ctrl-C
 * through the shutdown hook. A resource that fails to close is logged and the rest still close.
 */
final class ServeResources implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServeResources.class);

  private final Deque<Named> open = new ArrayDeque<>();
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private boolean closed;

  private record Named(String what, AutoCloseable resource) {}

  /** Registers {@code resource} to be closed before everything registered earlier. */
  synchronized <T extends AutoCloseable> T add(String what, T resource) {
    if (closed) {
      closeQuietly(new Named(what, resource));
      throw new IllegalStateException("the server is stopping");
    }
    open.push(new Named(what, resource));
    return resource;
  }

  /** Blocks until a shutdown is asked for. */
  void awaitStop() throws InterruptedException {
    stopRequested.await();
  }

  /** Waits at most {@code timeout} for a shutdown to be asked for; true when it was. */
  boolean awaitStop(Duration timeout) throws InterruptedException {
    return stopRequested.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * A shutdown hook that asks the run to stop and closes everything, waiting at most {@code
   * budget}: the JVM ends when the hook returns.
   */
  Thread shutdownHook(Duration budget) {
    return new Thread(
        () -> {
          stopRequested.countDown();
          Thread closer = new Thread(this::close, "skillport-stop");
          closer.setDaemon(true);
          closer.start();
          try {
            closer.join(budget.toMillis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          if (closer.isAlive()) {
            LOG.warn(
                "stopping before everything closed ({} ms were not enough)", budget.toMillis());
          }
        },
        "skillport-shutdown");
  }

  @Override
  public void close() {
    stopRequested.countDown();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      LOG.info("shutting down");
      while (!open.isEmpty()) {
        closeQuietly(open.pop());
      }
    }
  }

  private static void closeQuietly(Named named) {
    long start = System.nanoTime();
    try {
      named.resource().close();
    } catch (Exception | LinkageError e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("{} did not close cleanly: {}", named.what(), e.toString());
    }
    LOG.debug(
        "{} closed in {} ms",
        named.what(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }
}
