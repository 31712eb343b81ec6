package dev.skillport.server.cli;

import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillRoot;
import dev.skillport.loader.SkillRoots;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import dev.skillport.server.transport.StdioTransport;
import dev.skillport.server.transport.StreamableHttpTransport;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code skillport serve}: serves the skills over MCP on stdio or Streamable HTTP. */
@Command(
    name = "serve",
    description = "Serve skills over MCP (stdio by default, or Streamable HTTP).")
final class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  @ParentCommand private SkillportCommand parent;

  @ArgGroup(exclusive = true)
  private Mode mode = new Mode();

  static final class Mode {
    @Option(names = "--stdio", description = "One session on stdin/stdout (the default).")
    boolean stdio;

    @Option(names = "--http", description = "Streamable HTTP at http://HOST:PORT/mcp.")
    boolean http;
  }

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "HTTP bind address (${DEFAULT-VALUE}).")
  private String host;

  @Option(
      names = "--port",
      defaultValue = "8765",
      description = "HTTP port, 0 for any free one (${DEFAULT-VALUE}).")
  private int port;

  @Option(
      names = "--skills",
      paramLabel = "[SCOPE=]DIR",
      description =
          "A skill root (repeatable), highest priority first; SCOPE is repo, user, team, system or admin.")
  private List<String> skills = new ArrayList<>();

  @Option(
      names = "--preload",
      split = ",",
      paramLabel = "SKILL",
      description = "Skills every session starts with.")
  private List<String> preload = new ArrayList<>();

  @Option(
      names = "--strict",
      description = "Upstream strictness: unknown keys and invalid entries reject a skill.")
  private boolean strict;

  @Option(
      names = "--auth-token",
      paramLabel = "TOKEN",
      description = "Bearer or X-API-Key token; required when --host is not a loopback address.")
  private String authToken;

  @Option(names = "--no-watch", description = "Do not reload when skill files change.")
  private boolean noWatch;

  @Override
  public Integer call() throws Exception {
    CliEnvironment env = parent.environment();
    List<SkillRoot> roots =
        SkillRoots.resolve(skills, env.variables(), env.userHome(), null, List.of());
    ServeConfig config =
        ServeConfig.of(roots)
            .withLoaderOptions(LoaderOptions.DEFAULTS.withStrict(strict))
            .withPreload(preload)
            .withWatch(!noWatch);
    String version = new SkillportCommand.Version().getVersion()[0];
    try (SkillportServer server = SkillportServer.start(config, version)) {
      if (mode.http) {
        return serveHttp(server);
      }
      // The protocol owns the process's stdout; it is opened here, not through System.out, so
      // nothing else in the process can write to it by accident.
      InputStream in = new FileInputStream(FileDescriptor.in);
      OutputStream out = new FileOutputStream(FileDescriptor.out);
      new StdioTransport(server.mcp(), in, out).run();
      return SkillportCommand.EXIT_OK;
    }
  }

  private int serveHttp(SkillportServer server) throws Exception {
    StreamableHttpTransport.Builder builder =
        StreamableHttpTransport.builder(server.mcp()).host(host).port(port);
    if (authToken != null) {
      builder.authToken(authToken);
    }
    try (StreamableHttpTransport http = builder.build()) {
      http.start();
      http.setReady(true);
      parent.output().stderr().println("skillport: serving MCP at " + http.uri());
      parent.output().stderr().flush();
      CountDownLatch stop = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "skillport-shutdown"));
      stop.await();
      LOG.info("shutting down");
    }
    return SkillportCommand.EXIT_OK;
  }
}
