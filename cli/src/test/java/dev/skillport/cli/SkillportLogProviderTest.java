package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.ConsoleAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

class SkillportLogProviderTest {
  @TempDir Path dir;

  @Test
  void initialize_setsUpTheStderrAppenderAtWarn() {
    SkillportLogProvider provider = new SkillportLogProvider();

    provider.initialize();

    LoggerContext context = (LoggerContext) provider.getLoggerFactory();
    try {
      Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
      assertThat(root.getAppender("STDERR")).isInstanceOf(ConsoleAppender.class);
      assertThat(root.getLevel()).isEqualTo(Level.WARN);
      assertThat(context.isStarted()).isTrue();
      assertThat(context.getMDCAdapter()).isSameAs(provider.getMDCAdapter());
      assertThat(provider.getMarkerFactory().getMarker("m").getName()).isEqualTo("m");
      assertThat(provider.getRequestedApiVersion()).startsWith("2.0.");
    } finally {
      context.stop();
    }
  }

  @Test
  @ResourceLock(Resources.SYSTEM_PROPERTIES)
  void initialize_namedConfigurationFile_isReadInstead() throws Exception {
    Path config = dir.resolve("logback-named.xml");
    Files.writeString(
        config,
        "<configuration><appender name=\"NAMED\" class=\"ch.qos.logback.core.ConsoleAppender\">"
            + "<encoder><pattern>%msg%n</pattern></encoder></appender>"
            + "<root level=\"info\"><appender-ref ref=\"NAMED\"/></root></configuration>");
    System.setProperty("logback.configurationFile", config.toString());
    SkillportLogProvider provider = new SkillportLogProvider();
    try {
      provider.initialize();
    } finally {
      System.clearProperty("logback.configurationFile");
    }

    LoggerContext context = (LoggerContext) provider.getLoggerFactory();
    try {
      Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
      assertThat(root.getAppender("NAMED")).isNotNull();
      assertThat(root.getAppender("STDERR")).isNull();
      assertThat(root.getLevel()).isEqualTo(Level.INFO);
    } finally {
      context.stop();
    }
  }

  @Test
  @ResourceLock(Resources.SYSTEM_PROPERTIES)
  void nameLogProvider_namesThisProviderUnlessOneIsNamed() {
    String provider = System.getProperty(Main.PROVIDER_PROPERTY);
    String verbosity = System.getProperty(Main.VERBOSITY_PROPERTY);
    try {
      System.clearProperty(Main.PROVIDER_PROPERTY);
      System.clearProperty(Main.VERBOSITY_PROPERTY);
      Main.nameLogProvider();
      assertThat(System.getProperty(Main.PROVIDER_PROPERTY))
          .isEqualTo(SkillportLogProvider.class.getName());
      assertThat(System.getProperty(Main.VERBOSITY_PROPERTY)).isEqualTo("WARN");

      System.setProperty(Main.PROVIDER_PROPERTY, "org.example.Other");
      System.clearProperty(Main.VERBOSITY_PROPERTY);
      Main.nameLogProvider();
      assertThat(System.getProperty(Main.PROVIDER_PROPERTY)).isEqualTo("org.example.Other");
      assertThat(System.getProperty(Main.VERBOSITY_PROPERTY)).isNull();
    } finally {
      restore(Main.PROVIDER_PROPERTY, provider);
      restore(Main.VERBOSITY_PROPERTY, verbosity);
    }
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }
}
