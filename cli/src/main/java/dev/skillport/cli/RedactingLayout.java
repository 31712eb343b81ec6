package dev.skillport.cli;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import dev.skillport.runtime.secrets.Redactor;

/**
 * A pattern layout whose every line (message, arguments and stack trace alike) passes through the
 * process's {@link Redactor} before it is written.
 */
final class RedactingLayout extends LayoutBase<ILoggingEvent> {
  private final PatternLayout pattern = new PatternLayout();

  RedactingLayout(String pattern) {
    this.pattern.setPattern(pattern);
  }

  @Override
  public void start() {
    pattern.setContext(getContext());
    pattern.start();
    super.start();
  }

  @Override
  public void stop() {
    pattern.stop();
    super.stop();
  }

  @Override
  public String doLayout(ILoggingEvent event) {
    return Redactor.shared().text(pattern.doLayout(event));
  }
}
