package dev.skillport.server.cli;

import dev.skillport.api.skill.Scope;
import dev.skillport.bundled.BundledSkills;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillRoot;
import dev.skillport.loader.SkillRoots;
import dev.skillport.mcp.transport.StdioTransport;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.server.app.CallGuard;
import dev.skillport.server.app.ScriptPolicy;
import dev.skillport.server.app.ScriptToolRunner;
import dev.skillport.server.jobs.JobScheduler;
import dev.skillport.server.jobs.JobStore;
import dev.skillport.server.jobs.MemoryJobStore;
import dev.skillport.server.jobs.MvStoreJobStore;
import dev.skillport.server.plugins.PluginFolders;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import dev.skillport.server.workflows.MemoryWorkflowStore;
import dev.skillport.server.workflows.MvStoreWorkflowStore;
import dev.skillport.server.workflows.WorkflowStore;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

  @Option(
      names = "--no-bundled",
      description =
          "Do not serve the skills shipped with Skillport (skill-authoring, skillport-diagnostics).")
  private boolean noBundled;

  @Option(
      names = "--plugins",
      paramLabel = "DIR",
      description =
          "A folder of host-adapter plugin jars (repeatable); SKILLPORT_PLUGINS and ~/.skillport/plugins are searched too.")
  private List<Path> plugins = new ArrayList<>();

  @Option(
      names = "--jobs-dir",
      paramLabel = "DIR",
      description = "Where job and workflow run records are kept (default ~/.skillport/jobs).")
  private Path jobsDir;

  @Option(
      names = "--job-workers",
      defaultValue = "4",
      paramLabel = "N",
      description = "Jobs that run at once (${DEFAULT-VALUE}).")
  private int jobWorkers;

  @Option(
      names = "--python",
      defaultValue = "python3",
      paramLabel = "CMD",
      description = "The interpreter for .py script tools (${DEFAULT-VALUE}).")
  private String python;

  @Option(
      names = "--script-timeout",
      defaultValue = "60",
      paramLabel = "SECS",
      description = "Timeout of script tools that declare no timeout_hint_secs (${DEFAULT-VALUE}).")
  private int scriptTimeoutSecs;

  @Option(
      names = "--script-env",
      split = ",",
      paramLabel = "NAME",
      description = "A server environment variable passed on to scripts (repeatable).")
  private List<String> scriptEnv = new ArrayList<>();

  @Option(
      names = "--deny-interpreter",
      split = ",",
      paramLabel = "KIND",
      description = "Refuse script tools of this kind: python, bash or node (repeatable).")
  private List<String> deniedInterpreters = new ArrayList<>();

  @Option(
      names = "--deny-skill",
      split = ",",
      paramLabel = "SKILL",
      description = "Refuse every tool call of this skill (repeatable).")
  private List<String> deniedSkills = new ArrayList<>();

  @Option(
      names = "--audit-log",
      paramLabel = "FILE",
      description = "Append one JSON line per tool call (never argument values) to FILE.")
  private Path auditLog;

  @Override
  public Integer call() throws Exception {
    CliEnvironment env = parent.environment();
    List<SkillRoot> roots =
        new ArrayList<>(
            SkillRoots.resolve(skills, env.variables(), env.userHome(), null, List.of()));
    // Unpacked for this run only and served at system scope, like the skills plugins ship.
    BundledSkills bundled = noBundled ? null : BundledSkills.unpack();
    if (bundled != null) {
      roots.add(new SkillRoot(bundled.root(), Scope.SYSTEM, "bundled"));
    }
    ServeConfig config =
        ServeConfig.of(roots)
            // Every processor reads skills: the first tools/list waits for the whole catalog, and
            // the loader's result does not depend on its parallelism.
            .withLoaderOptions(
                LoaderOptions.DEFAULTS
                    .withStrict(strict)
                    .withParallelism(Runtime.getRuntime().availableProcessors()))
            .withPreload(preload)
            .withWatch(!noWatch);
    String version = new SkillportCommand.Version().getVersion()[0];
    List<Path> pluginFolders = PluginFolders.resolve(plugins, env.variables(), env.userHome());
    try (bundled;
        // Launched, not started: the transport takes the client's handshake while the catalog
        // loads, and every other request waits for it (decision record 0014).
        SkillportServer server = SkillportServer.launch(config, version, pluginFolders)) {
      try (JobScheduler jobs = openJobs(env);
          CallGuard guard = CallGuard.of(Set.copyOf(deniedSkills), auditLog)) {
        server.service().configureExecution(scriptRunner(env), jobs, guard);
        server.workflows().useStore(openWorkflowStore(env));
        if (mode.http) {
          return serveHttp(server);
        }
        // The protocol owns the process's stdout; it is opened here, not through System.out, so
        // nothing else in the process can write to it by accident.
        server.transportStarted("stdio");
        InputStream in = new FileInputStream(FileDescriptor.in);
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        new StdioTransport(server.mcp(), in, out).run();
        return SkillportCommand.EXIT_OK;
      }
    }
  }

  private Path jobsDir(CliEnvironment env) {
    if (jobsDir != null) {
      return jobsDir;
    }
    Path home = env.userHome() != null ? env.userHome() : Path.of(".");
    return home.resolve(".skillport").resolve("jobs");
  }

  /** Workflow runs and idempotency records live next to the job records. */
  private WorkflowStore openWorkflowStore(CliEnvironment env) {
    try {
      return MvStoreWorkflowStore.open(jobsDir(env));
    } catch (java.io.IOException e) {
      LOG.warn("workflow runs stay in memory only: {}", e.getMessage());
      return new MemoryWorkflowStore();
    }
  }

  private JobScheduler openJobs(CliEnvironment env) {
    Path dir = jobsDir(env);
    JobStore store;
    try {
      store = MvStoreJobStore.open(dir);
    } catch (java.io.IOException e) {
      // Another server (often a second stdio server of the same user) holds the store.
      LOG.warn("job records stay in memory only: {}", e.getMessage());
      store = new MemoryJobStore();
    }
    return new JobScheduler(store, Math.max(1, jobWorkers));
  }

  private ScriptToolRunner scriptRunner(CliEnvironment env) {
    ScriptPolicy policy =
        ScriptPolicy.defaults()
            .withPython(python)
            .withDefaultTimeout(Duration.ofSeconds(Math.max(1, scriptTimeoutSecs)))
            .withPassEnv(Set.copyOf(scriptEnv))
            .withDeniedInterpreters(Set.copyOf(deniedInterpreters));
    return new ScriptToolRunner(policy, env.variables());
  }

  private int serveHttp(SkillportServer server) throws Exception {
    StreamableHttpTransport.Builder builder =
        StreamableHttpTransport.builder(server.mcp())
            .host(host)
            .port(port)
            // /readyz answers 200 once the first catalog is served.
            .readiness(server::isReady);
    if (authToken != null) {
      builder.authToken(authToken);
    }
    try (StreamableHttpTransport http = builder.build()) {
      http.start();
      server.transportStarted(http.uri().toString());
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
