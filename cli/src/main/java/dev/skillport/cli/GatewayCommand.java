package dev.skillport.cli;

import dev.skillport.gateway.FolderRegistry;
import dev.skillport.gateway.Gateway;
import dev.skillport.gateway.GatewayMcp;
import dev.skillport.gateway.GatewayPage;
import dev.skillport.gateway.GatewayPolicy;
import dev.skillport.gateway.InstanceClient;
import dev.skillport.gateway.InstanceRegistry;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import java.io.IOException;
import java.net.BindException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code skillport gateway}: one MCP endpoint (both eras, Streamable HTTP on 127.0.0.1) over every
 * instance in the registry folder. It routes every call to the instance that owns the tool and runs
 * none itself (decision 0057).
 */
@Command(
    name = "gateway",
    addMethodSubcommands = false,
    description =
        "Serve one MCP endpoint over every Skillport instance of this workstation (routes calls,"
            + " runs no tool itself).")
final class GatewayCommand implements Callable<Integer> {
  /** The gateway's well-known port. */
  static final int DEFAULT_PORT = 9765;

  @ParentCommand private SkillportCommand parent;

  @Option(
      names = "--port",
      paramLabel = "N",
      description = "Port on 127.0.0.1 (default ${DEFAULT-VALUE}).")
  private int port = DEFAULT_PORT;

  @Option(
      names = "--registry",
      paramLabel = "DIR",
      description = "The registry folder instances register in (default ~/.skillport/gateway).")
  private Path registry;

  @Option(
      names = "--probe-interval",
      paramLabel = "SECONDS",
      description =
          "How often each instance is probed; 3 missed probes evict it (default ${DEFAULT-VALUE}).")
  private int probeIntervalSecs = 5;

  @Option(
      names = "--exit-when-idle",
      paramLabel = "SECONDS",
      description =
          "Stop once no instance has been registered for this long; 0 never (default"
              + " ${DEFAULT-VALUE}).")
  private int exitWhenIdleSecs;

  @Option(
      names = "--read-only",
      description = "Route only tools annotated read-only (readOnlyHint); refuse every other call.")
  private boolean readOnly;

  @Option(
      names = "--allow-dcc",
      split = ",",
      paramLabel = "DCC",
      description = "Route only to instances serving these host products (default: all).")
  private List<String> allowDcc = new ArrayList<>();

  @Option(
      names = "--allow-skill",
      split = ",",
      paramLabel = "NAME",
      description = "Show and route only these skills; a trailing * matches a prefix.")
  private List<String> allowSkill = new ArrayList<>();

  @Option(
      names = "--allow-tool",
      split = ",",
      paramLabel = "NAME",
      description = "Route only these tools (skill__tool or tool; a trailing * matches a prefix).")
  private List<String> allowTool = new ArrayList<>();

  @Option(
      names = "--call-timeout",
      paramLabel = "SECONDS",
      description = "How long a routed request may take (default ${DEFAULT-VALUE}).")
  private int callTimeoutSecs = 600;

  @Option(
      names = "--instance-concurrency",
      paramLabel = "N",
      description =
          "Requests one instance may have in flight through the gateway (default"
              + " ${DEFAULT-VALUE}); more wait briefly, then answer INSTANCE_BUSY.")
  private int concurrency = 16;

  @Option(
      names = "--store",
      paramLabel = "URL",
      description =
          "Read the instances from the gateway registry in this PostgreSQL store"
              + " (postgresql://host:port/database?user=NAME) instead of a registry folder:"
              + " instances on many machines, any number of gateways.")
  private String store;

  @Option(
      names = "--store-password-file",
      paramLabel = "FILE",
      description = "The store's password (else PGPASSWORD or ~/.pgpass).")
  private Path storePasswordFile;

  @Option(
      names = "--registration-token-file",
      paramLabel = "FILE",
      description =
          "With --store: route only to instances registered with this token (the file's first"
              + " line, 16 characters or more).")
  private Path registrationTokenFile;

  /** The token the gateway reads instances' catalogs with, for instances that require one. */
  static final String TOKEN_VARIABLE = "SKILLPORT_GATEWAY_TOKEN";

  @Override
  public Integer call() throws Exception {
    if (callTimeoutSecs < 1 || concurrency < 1) {
      throw StartupFailure.usage("--call-timeout and --instance-concurrency take 1 or more");
    }
    if (port < 0 || port > 65535) {
      throw StartupFailure.usage("--port " + port + " is not a port: give 0-65535");
    }
    if (probeIntervalSecs < 1 || exitWhenIdleSecs < 0) {
      throw StartupFailure.usage(
          "--probe-interval takes 1 or more seconds, --exit-when-idle 0 or more");
    }
    CliEnvironment env = parent.environment();
    InstanceRegistry reg = openRegistry(env);
    String version = SkillportCommand.Version.number();
    ServeResources resources = new ServeResources();
    if (reg instanceof PostgresRegistry pg) {
      resources.add("gateway registry", pg);
    }
    Thread hook = resources.shutdownHook(ServeCommand.STOP_BUDGET);
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      Gateway gateway =
          resources.add(
              "gateway",
              new Gateway(
                  reg,
                  new InstanceClient(version),
                  Duration.ofSeconds(probeIntervalSecs),
                  Clock.systemUTC(),
                  new Gateway.Settings(
                      new GatewayPolicy(readOnly, allowDcc, allowSkill, allowTool),
                      Duration.ofSeconds(callTimeoutSecs),
                      concurrency,
                      ownToken(env))));
      McpServer mcp = resources.add("gateway MCP", GatewayMcp.build(gateway, version));
      StreamableHttpTransport http =
          resources.add(
              "HTTP endpoint",
              StreamableHttpTransport.builder(mcp)
                  .host("127.0.0.1")
                  .port(port)
                  .routes(new GatewayPage(gateway, Clock.systemUTC()))
                  .build());
      try {
        http.start();
      } catch (IOException e) {
        throw bindFailure(e);
      }
      gateway.start();
      parent
          .output()
          .stderr()
          .println(
              "skillport: gateway serving MCP at "
                  + http.uri()
                  + " over the registry "
                  + reg
                  + " (pid "
                  + ProcessHandle.current().pid()
                  + ")");
      parent.output().stderr().flush();
      awaitStopOrIdle(resources, gateway);
      return SkillportCommand.EXIT_OK;
    } finally {
      resources.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down
      }
    }
  }

  /** Waits for a signal, or until no instance has been registered for --exit-when-idle. */
  private void awaitStopOrIdle(ServeResources resources, Gateway gateway)
      throws InterruptedException {
    if (exitWhenIdleSecs == 0) {
      resources.awaitStop();
      return;
    }
    while (!resources.awaitStop(Duration.ofSeconds(1))) {
      Instant since = gateway.emptySince();
      if (since != null
          && since.plusSeconds(exitWhenIdleSecs).isBefore(Clock.systemUTC().instant())) {
        parent
            .output()
            .stderr()
            .println("skillport: gateway stopping: no instance for " + exitWhenIdleSecs + " s");
        parent.output().stderr().flush();
        return;
      }
    }
  }

  /** The registry folder, or the PostgreSQL registry with --store. */
  private InstanceRegistry openRegistry(CliEnvironment env) {
    if (store == null) {
      if (storePasswordFile != null || registrationTokenFile != null) {
        throw StartupFailure.usage(
            "--store-password-file and --registration-token-file go with --store");
      }
      Path folder = registryFolder(env, registry);
      try {
        return FolderRegistry.open(folder);
      } catch (IOException e) {
        throw StartupFailure.environment(
            "cannot use the gateway registry " + folder + ": " + e.getMessage(), e);
      }
    }
    if (registry != null) {
      throw StartupFailure.usage("give --registry (a folder) or --store (PostgreSQL), not both");
    }
    StoreUrl url =
        StoreUrl.parse(store, storePasswordFile, env.variables(), env.workingDirectory());
    if (!(url instanceof StoreUrl.Postgres pg)) {
      throw StartupFailure.usage("--store takes a postgresql:// URL for the gateway registry");
    }
    try {
      return PostgresRegistry.open(
          pg.location(),
          env.variables(),
          registrationTokenFile == null
              ? null
              : env.workingDirectory().resolve(registrationTokenFile));
    } catch (IOException e) {
      throw StartupFailure.usage(e.getMessage());
    } catch (RuntimeException e) {
      throw StartupFailure.environment(
          "cannot use the gateway registry " + pg.location() + ": " + e.getMessage(), e);
    }
  }

  private static String ownToken(CliEnvironment env) {
    String token = env.variables().get(TOKEN_VARIABLE);
    return token == null || token.isBlank() ? null : token.strip();
  }

  private StartupFailure bindFailure(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        return StartupFailure.environment(
            "port "
                + port
                + " on 127.0.0.1 is in use (perhaps by a gateway already running): give another"
                + " with --port N",
            e);
      }
    }
    return StartupFailure.environment("cannot listen on 127.0.0.1:" + port + ": " + e, e);
  }

  /** {@code given} against the working directory, else {@code ~/.skillport/gateway}. */
  static Path registryFolder(CliEnvironment env, Path given) {
    if (given != null) {
      return env.workingDirectory().resolve(given).normalize();
    }
    Path home = env.userHome() != null ? env.userHome() : env.workingDirectory();
    return home.resolve(".skillport").resolve("gateway");
  }
}
