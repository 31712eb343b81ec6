package dev.skillport.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import ch.qos.logback.core.util.StatusPrinter2;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.Reporter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider the {@code skillport} executable names ({@link Main}): logback, set up by
 * {@link StderrLogConfigurator} directly, without the configurator search, the version checks and
 * the timing reports of logback's own provider, which were about 6 % of a stdio server's start
 * (decision 0034). A configuration named with {@code -Dlogback.configurationFile}, or a {@code
 * logback-test.xml} on the class path, goes through logback's usual search, as with logback's own
 * provider.
 */
public final class SkillportLogProvider implements SLF4JServiceProvider {
  /** The SLF4J API version this provider is written against, as logback 1.5 requests it. */
  static final String API_VERSION = "2.0.99";

  private final LoggerContext context = new LoggerContext();
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final LogbackMDCAdapter mdc = new LogbackMDCAdapter();

  /** Created by SLF4J, from the {@code slf4j.provider} system property. */
  public SkillportLogProvider() {}

  @Override
  public void initialize() {
    context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
    context.setMDCAdapter(mdc);
    StderrLogConfigurator configurator = new StderrLogConfigurator();
    configurator.setContext(context);
    if (configurator.configure(context) != ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY) {
      try {
        new ContextInitializer(context).autoConfig();
      } catch (JoranException e) {
        Reporter.error("Failed to auto configure default logger context", e);
      }
    }
    // A configuration that went wrong says so, as with logback's own provider, but on stderr:
    // stdout may carry the stdio protocol. The printer is made only then (its class loads the
    // time-zone data for its timestamps).
    if (!StatusUtil.contextHasStatusListener(context)
        && new StatusUtil(context).getHighestLevel(0) >= Status.WARN) {
      StatusPrinter2 printer = new StatusPrinter2();
      printer.setPrintStream(System.err);
      printer.print(context);
    }
    context.start();
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return context;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return API_VERSION;
  }
}
