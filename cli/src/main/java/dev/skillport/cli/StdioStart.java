package dev.skillport.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;

/**
 * How this process's stdio conversation begins: the {@link StartCache} of a {@code serve} command
 * (or none), and the {@link OpeningLane} answering the opening kept in it while the server starts,
 * if that opening still holds. Decided before anything else of the program runs.
 *
 * @param cache the process's start cache, or null (not a stdio {@code serve}, or turned off)
 * @param lane the lane answering the opening the cache holds for this process and its files, or
 *     null
 */
record StdioStart(StartCache cache, OpeningLane lane) {
  /** No cache: a command other than a stdio {@code serve}, or a test's command line. */
  static final StdioStart NONE = new StdioStart(null, null);

  /** The start of this process, run with {@code args}. Never throws: a cache is optional. */
  static StdioStart of(String[] args) {
    try {
      StartCache cache = StartCache.forProcess(args);
      if (cache == null) {
        return NONE;
      }
      StartCache.Opening kept = cache.valid();
      if (kept == null) {
        return new StdioStart(cache, null);
      }
      OpeningLane lane =
          new OpeningLane(
              kept,
              new FileInputStream(FileDescriptor.in),
              new FileOutputStream(FileDescriptor.out));
      return new StdioStart(cache, lane);
    } catch (RuntimeException e) {
      return NONE;
    }
  }
}
