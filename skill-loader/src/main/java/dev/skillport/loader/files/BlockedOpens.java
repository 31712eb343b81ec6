package dev.skillport.loader.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens files checked to be regular, and frees an open that blocks because a named pipe took the
 * file's place after the check.
 *
 * <p>Java cannot open with {@code O_NONBLOCK}, and opening a FIFO for reading blocks until a writer
 * comes. The check before opening leaves a window of microseconds; should a FIFO be swapped in
 * then, a watcher thread sees the open still pending after {@link #RELEASE_AFTER_MILLIS} and opens
 * the same FIFO for reading and writing (which never blocks on Linux and counts as a writer), then
 * closes it: the pending open returns, and the caller's size check refuses what it opened. The
 * watcher runs only while opens are pending, checking every {@link #TICK_MILLIS}.
 */
final class BlockedOpens {
  static final long RELEASE_AFTER_MILLIS = 200;
  private static final long TICK_MILLIS = 100;
  private static final Logger LOG = LoggerFactory.getLogger(BlockedOpens.class);

  private static final Set<Pending> PENDING = ConcurrentHashMap.newKeySet();
  private static final AtomicBoolean WATCHING = new AtomicBoolean();

  private BlockedOpens() {}

  /** One open under way. Compared by identity: two threads may open one path at once. */
  private static final class Pending {
    final Path path;
    final long since = System.nanoTime();

    Pending(Path path) {
      this.path = path;
    }
  }

  /** Opens {@code path} for reading, under the watcher. */
  static FileChannel openForReading(Path path) throws IOException {
    Pending pending = new Pending(path);
    PENDING.add(pending);
    if (WATCHING.compareAndSet(false, true)) {
      startWatcher();
    }
    try {
      return FileChannel.open(path, StandardOpenOption.READ);
    } finally {
      PENDING.remove(pending);
    }
  }

  private static void startWatcher() {
    Thread watcher = new Thread(BlockedOpens::watch, "skillport-blocked-opens");
    watcher.setDaemon(true);
    watcher.start();
  }

  private static void watch() {
    while (true) {
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        WATCHING.set(false);
        return;
      }
      if (PENDING.isEmpty()) {
        WATCHING.set(false);
        // An open added after the check above saw WATCHING still true and started no watcher.
        if (PENDING.isEmpty() || !WATCHING.compareAndSet(false, true)) {
          return;
        }
      }
      long now = System.nanoTime();
      for (Pending p : PENDING) {
        if (now - p.since > TimeUnit.MILLISECONDS.toNanos(RELEASE_AFTER_MILLIS)) {
          release(p.path);
        }
      }
    }
  }

  /**
   * Opens and closes {@code path} as a writer when it is a FIFO, so that a blocked reader wakes.
   */
  private static void release(Path path) {
    try {
      BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
      if (FileKind.of(path, a) != FileKind.FIFO) {
        return;
      }
      FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
      LOG.warn("{} became a named pipe while it was opened; the open was released", path);
    } catch (IOException | RuntimeException e) {
      LOG.debug("could not release a blocked open of {}", path, e);
    }
  }
}
