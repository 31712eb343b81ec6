package dev.skillport.cli;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;

/**
 * A pattern layout whose every line (message, arguments and stack trace alike) passes through the
 * log's {@link LogRedaction} before it is written.
 *
 * <p>The pattern is parsed at the first line, not at start: a process that logs nothing (a stdio
 * server at the default level, most commands) never pays for logback's converter table and the
 * time-zone data its date converter loads (decision 0034).
 */
final class RedactingLayout extends LayoutBase<ILoggingEvent> {
  private final String pattern;
  private final LogRedaction redaction;
  private volatile PatternLayout layout;

  RedactingLayout(String pattern, LogRedaction redaction) {
    this.pattern = pattern;
    this.redaction = redaction;
  }

  @Override
  public void stop() {
    PatternLayout started = layout;
    if (started != null) {
      started.stop();
    }
    super.stop();
  }

  @Override
  public String doLayout(ILoggingEvent event) {
    return redaction.text(layout().doLayout(event));
  }

  private PatternLayout layout() {
    PatternLayout started = layout;
    if (started == null) {
      synchronized (this) {
        started = layout;
        if (started == null) {
          started = new PatternLayout();
          started.setPattern(pattern);
          started.setContext(getContext());
          started.start();
          layout = started;
        }
      }
    }
    return started;
  }
}
