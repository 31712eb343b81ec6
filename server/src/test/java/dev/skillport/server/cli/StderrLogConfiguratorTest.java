package dev.skillport.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
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
  void level_propertyThenEnvironmentThenWarn() {
    assertThat(StderrLogConfigurator.level("debug", Map.of("SKILLPORT_LOG_LEVEL", "error")))
        .isEqualTo(Level.DEBUG);
    assertThat(StderrLogConfigurator.level(null, Map.of("SKILLPORT_LOG_LEVEL", "error")))
        .isEqualTo(Level.ERROR);
    assertThat(StderrLogConfigurator.level(null, Map.of())).isEqualTo(Level.WARN);
    assertThat(StderrLogConfigurator.level("loud", Map.of())).isEqualTo(Level.WARN);
  }
}
