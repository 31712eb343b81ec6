package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.runtime.secrets.Redactor;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StderrLogConfiguratorTest {
  @Test
  void configure_freshContext_oneStderrAppenderOnTheRoot() {
    LoggerContext context = new LoggerContext();
    StderrLogConfigurator configurator = new StderrLogConfigurator();
    configurator.setContext(context);

    Configurator.ExecutionStatus status = configurator.configure(context);

    assertThat(status).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getAppender("STDERR"))
        .isInstanceOfSatisfying(
            ConsoleAppender.class,
            appender -> {
              assertThat(appender.getTarget()).isEqualTo("System.err");
              assertThat(appender.isStarted()).isTrue();
            });
    context.stop();
  }

  @Test
  void appender_linesPassTheRedactor() {
    LoggerContext context = new LoggerContext();
    StderrLogConfigurator configurator = new StderrLogConfigurator();
    configurator.setContext(context);
    configurator.configure(context);
    ConsoleAppender<ILoggingEvent> appender =
        (ConsoleAppender<ILoggingEvent>)
            context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
    Redactor redactor = new Redactor();
    redactor.addSecret("log-secret-0123456789");
    LogRedaction.of(context).use(redactor);
    Logger logger = context.getLogger("test");
    LoggingEvent event =
        new LoggingEvent(
            Logger.class.getName(),
            logger,
            Level.WARN,
            "child said API_TOKEN={} and {}",
            new IllegalStateException("boom log-secret-0123456789"),
            new Object[] {"sk-plain-abcdef", "log-secret-0123456789"});

    String line = new String(appender.getEncoder().encode(event), StandardCharsets.UTF_8);

    assertThat(line)
        .contains("child said API_TOKEN=[REDACTED] and [REDACTED]")
        .contains("IllegalStateException: boom [REDACTED]")
        .doesNotContain("sk-plain-abcdef")
        .doesNotContain("log-secret-0123456789");
    context.stop();
  }

  @Test
  void level_propertyThenEnvironmentThenWarn() {
    assertThat(StderrLogConfigurator.level("debug", Map.of("SKILLPORT_LOG_LEVEL", "error")))
        .isEqualTo(Level.DEBUG);
    assertThat(StderrLogConfigurator.level(null, Map.of("SKILLPORT_LOG_LEVEL", "error")))
        .isEqualTo(Level.ERROR);
    assertThat(StderrLogConfigurator.level(null, Map.of())).isEqualTo(Level.WARN);
    assertThat(StderrLogConfigurator.level("loud", Map.of())).isEqualTo(Level.WARN);
  }

  @Test
  void useFormat_json_writesOneRedactedObjectPerLine() throws Exception {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    StderrLogConfigurator configurator = new StderrLogConfigurator();
    configurator.setContext(context);
    configurator.configure(context);
    StderrLogConfigurator.useFormat(context, LogFormat.JSON);
    ConsoleAppender<ILoggingEvent> appender =
        (ConsoleAppender<ILoggingEvent>)
            context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
    Redactor redactor = new Redactor();
    redactor.addSecret("json-secret-0123456789");
    LogRedaction.of(context).use(redactor);
    LoggingEvent event =
        new LoggingEvent(
            Logger.class.getName(),
            context.getLogger("test.json"),
            Level.WARN,
            "child said {}",
            new IllegalStateException("boom json-secret-0123456789"),
            new Object[] {"json-secret-0123456789"});

    String line = new String(appender.getEncoder().encode(event), StandardCharsets.UTF_8);

    assertThat(appender.isStarted()).isTrue();
    assertThat(line.strip()).doesNotContain("\n").doesNotContain("json-secret-0123456789");
    JsonNode json = new ObjectMapper().readTree(line);
    assertThat(json.path("level").asText()).isEqualTo("WARN");
    assertThat(json.path("loggerName").asText()).isEqualTo("test.json");
    assertThat(json.path("formattedMessage").asText()).isEqualTo("child said [REDACTED]");
    assertThat(json.path("throwable").toString()).contains("boom [REDACTED]");
    context.stop();
  }

  @Test
  void logFormat_propertyThenEnvironmentThenText() {
    assertThat(LogFormat.of("json", Map.of("SKILLPORT_LOG_FORMAT", "text")))
        .isEqualTo(LogFormat.JSON);
    assertThat(LogFormat.of(null, Map.of("SKILLPORT_LOG_FORMAT", "JSON")))
        .isEqualTo(LogFormat.JSON);
    assertThat(LogFormat.of(null, Map.of())).isEqualTo(LogFormat.TEXT);
    assertThat(LogFormat.of("yaml", Map.of())).isEqualTo(LogFormat.TEXT);
  }
}
