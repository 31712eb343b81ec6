package dev.skillport.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.LoggerFactory;

/**
 * Sets up logging for every Skillport process: one appender on stderr (stdout carries command
 * results and the stdio protocol) at the level of {@code -Dskillport.log.level} or {@code
 * SKILLPORT_LOG_LEVEL}, {@code warn} by default, in the {@link LogFormat} of {@code
 * -Dskillport.log.format}, {@code SKILLPORT_LOG_FORMAT} or {@code --log-format}, every line
 * redacted. Jetty logs at info at most, whatever the level: its debug output holds the raw bytes of
 * requests, secrets included.
 *
 * <p>Configured in code rather than from {@code logback.xml}: parsing an XML configuration cost
 * about a quarter of a second of every start. A configuration named with {@code
 * -Dlogback.configurationFile}, or a {@code logback-test.xml} on the class path, still wins.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class StderrLogConfigurator extends ContextAwareBase implements Configurator {
  static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n";

  /** The logger tree whose level is kept at info or above; see {@link #configure}. */
  static final String JETTY = "org.eclipse.jetty";

  /** The tokenizer library's logger tree, kept at error. */
  static final String DJL = "ai.djl";

  private static final String APPENDER = "STDERR";

  /** Created by logback through {@link java.util.ServiceLoader}. */
  public StderrLogConfigurator() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null
        || StderrLogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    // Every line passes the redactor: no secret reaches a log.
    Encoder<ILoggingEvent> encoder =
        LogFormat.of(System.getProperty("skillport.log.format"), System.getenv()).encoder(context);
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName(APPENDER);
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    Level level = level(System.getProperty("skillport.log.level"), System.getenv());
    root.setLevel(level);
    root.addAppender(appender);
    // Jetty's debug and trace logs hold raw request bytes (tokens, arguments): never below info.
    context.getLogger(JETTY).setLevel(level.isGreaterOrEqual(Level.INFO) ? level : Level.INFO);
    // The embedding model's tokenizer library warns on every CPU-only machine that it found no GPU.
    context.getLogger(DJL).setLevel(level.isGreaterOrEqual(Level.ERROR) ? level : Level.ERROR);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /**
   * Writes every later line of this process's stderr log in {@code format}; does nothing when a
   * logback configuration file, not this configurator, set logging up.
   */
  static void useFormat(LogFormat format) {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      useFormat(context, format);
    }
  }

  /** {@link #useFormat(LogFormat)} in {@code context}. */
  static void useFormat(LoggerContext context, LogFormat format) {
    Appender<ILoggingEvent> named =
        context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(APPENDER);
    if (named instanceof ConsoleAppender<ILoggingEvent> appender) {
      appender.stop();
      appender.setEncoder(format.encoder(context));
      appender.start();
    }
  }

  /** The property first, then the environment variable; an unknown name reads as {@code warn}. */
  static Level level(String property, java.util.Map<String, String> env) {
    String name = property != null ? property : env.get("SKILLPORT_LOG_LEVEL");
    return Level.toLevel(name, Level.WARN);
  }
}
