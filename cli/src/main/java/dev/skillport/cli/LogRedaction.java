package dev.skillport.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.Context;
import dev.skillport.runtime.secrets.Redactor;
import org.slf4j.LoggerFactory;

/**
 * The redactor the stderr log masks its lines with, kept in the logger context. Logging is set up
 * before any command composes its redactor, so the log starts with one that knows only the
 * documented secret names and takes the command's own once it is made ({@link #useInProcess}).
 */
final class LogRedaction {
  private static final String KEY = LogRedaction.class.getName();

  private volatile Redactor redactor = new Redactor();

  private LogRedaction() {}

  /** The log redaction of {@code context}, made on first use. */
  static LogRedaction of(Context context) {
    synchronized (context) {
      if (context.getObject(KEY) instanceof LogRedaction known) {
        return known;
      }
      LogRedaction made = new LogRedaction();
      context.putObject(KEY, made);
      return made;
    }
  }

  /**
   * Masks every later line of this process's stderr log with {@code redactor}; does nothing when
   * logging is not logback's.
   */
  static void useInProcess(Redactor redactor) {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      of(context).use(redactor);
    }
  }

  /** Masks every later line with {@code redactor}. */
  void use(Redactor redactor) {
    this.redactor = redactor;
  }

  /** {@code line} with its secrets masked. */
  String text(String line) {
    return redactor.text(line);
  }
}
