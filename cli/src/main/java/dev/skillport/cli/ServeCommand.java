package dev.skillport.cli;

import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.bridge.BridgeTrust;
import dev.skillport.bridge.TrustFile;
import dev.skillport.bundled.AuthoringFolders;
import dev.skillport.bundled.AuthoringHandlers;
import dev.skillport.bundled.BundledSkills;
import dev.skillport.gateway.CatalogDigest;
import dev.skillport.gateway.GatewayMembership;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillRoots;
import dev.skillport.mcp.transport.StdioTransport;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.plugins.AdapterSettings;
import dev.skillport.plugins.PluginFolders;
import dev.skillport.plugins.PluginsLoading;
import dev.skillport.registry.search.SemanticSearch;
import dev.skillport.runtime.AuditTrail;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.PathRules;
import dev.skillport.runtime.ScriptPolicy;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SkillAccess;
import dev.skillport.runtime.StateSigner;
import dev.skillport.runtime.jobs.JobScheduler;
import dev.skillport.runtime.jobs.JobStore;
import dev.skillport.runtime.jobs.MvStoreJobStore;
import dev.skillport.runtime.jobs.StoreInUseException;
import dev.skillport.runtime.process.ScriptRuns;
import dev.skillport.runtime.secrets.Redactor;
import dev.skillport.runtime.secrets.SecretNames;
import dev.skillport.server.app.ListingPolicy;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.ServeExecution;
import dev.skillport.server.serve.SkillportServer;
import dev.skillport.store.postgres.PostgresStore;
import dev.skillport.workflows.MvStoreWorkflowStore;
import dev.skillport.workflows.WorkflowStore;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code skillport serve}: serves the skills over MCP on stdio or Streamable HTTP until stdin ends
 * (stdio), or SIGTERM or Ctrl-C arrives; then it stops within {@link #STOP_BUDGET}: in-flight jobs
 * and workflow runs are marked interrupted, every script process killed (daemons the scripts
 * detached included), stores closed, temporary folders removed.
 */
@Command(
    name = "serve",
    addMethodSubcommands = false,
    description = "Serve skills over MCP (stdio by default, or Streamable HTTP).")
final class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  /** How long a signalled shutdown may take before the process ends anyway. */
  static final Duration STOP_BUDGET = Duration.ofMillis(4500);

  private static final Pattern INSTANCE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  /** How many numbered stores ({@code NAME-2}...) a default instance name may take. */
  private static final int DEFAULT_INSTANCE_SLOTS = 32;

  private static final String EMBEDDINGS_FILE = "search-embeddings.bin";

  /** The environment variable that may hold the state key, as {@code --state-key-file} does. */
  static final String STATE_KEY_VARIABLE = "SKILLPORT_STATE_KEY";

  @ParentCommand private SkillportCommand parent;

  @Spec private CommandSpec spec;

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
      names = "--page-size",
      paramLabel = "N",
      description =
          "Entries per page of tools/list, prompts/list and resources/list (${DEFAULT-VALUE}).")
  private int pageSize = ServeConfig.DEFAULT_PAGE_SIZE;

  @Option(
      names = "--strict",
      description = "Upstream strictness: unknown keys and invalid entries reject a skill.")
  private boolean strict;

  @Option(
      names = "--auth-token",
      paramLabel = "TOKEN",
      description =
          "Bearer or X-API-Key token (repeatable: one per caller; a caller's tasks are its own);"
              + " required when --host is not a loopback address.")
  private List<String> authTokens = new ArrayList<>();

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description =
          "A token whose caller is an operator (repeatable): accepted like --auth-token, and"
              + " recent_calls, tool_metrics and the page show it every caller's calls.")
  private List<String> adminTokens = new ArrayList<>();

  @Option(
      names = "--tool-listing",
      defaultValue = "auto",
      paramLabel = "all|catalog|auto",
      description =
          "What tools/list holds for 2026-07-28 clients, which have no session to load skills"
              + " into: every tool (all), the core tools, preloaded skills' tools and call_tool"
              + " (catalog), or all up to --tool-listing-threshold tools and catalog above"
              + " (${DEFAULT-VALUE}).")
  private String toolListing;

  @Option(
      names = "--tool-listing-threshold",
      defaultValue = "" + SkillportService.DEFAULT_AUTO_THRESHOLD,
      paramLabel = "N",
      description = "The most tools --tool-listing auto lists in full (${DEFAULT-VALUE}).")
  private int toolListingThreshold;

  @Option(
      names = "--state-key-file",
      paramLabel = "FILE",
      description =
          "The key that signs state handed to 2026-07-28 clients (tool-group handles, questions"
              + " asked mid-call); every instance behind one load balancer needs the same."
              + " SKILLPORT_STATE_KEY gives it too; default: a random key per process.")
  private Path stateKeyFile;

  @Option(names = "--no-watch", description = "Do not reload when skill files change.")
  private boolean noWatch;

  @Option(
      names = "--search",
      paramLabel = "MODE",
      description =
          "How search_skills, search_tools and the page rank: hybrid (words and meaning, through a"
              + " small embedding model run in-process once the skills are embedded in the"
              + " background) or lexical (words only). Default: SKILLPORT_SEARCH, else lexical.")
  private SemanticSearch.Mode searchMode;

  @Option(
      names = "--no-bundled",
      description =
          "Do not serve the skills shipped with Skillport (skill-authoring, skillport-diagnostics).")
  private boolean noBundled;

  @Option(
      names = "--max-sessions",
      paramLabel = "N",
      description =
          "HTTP: most sessions open at once (default 1000); past it the idle session of the client holding the most makes room.")
  private int maxSessions = 1000;

  @Option(
      names = "--session-idle-timeout",
      paramLabel = "SECONDS",
      description = "HTTP: a session unused this long, with no stream open, ends (default 3600).")
  private long sessionIdleSecs = 3600;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description =
          "HTTP: most connections open at once (default 10000, or 512 below the file-descriptor limit).")
  private Integer maxConnections;

  @Option(
      names = "--header-timeout",
      paramLabel = "SECONDS",
      description =
          "HTTP: a connection without a request in progress must send a request's headers within this (default 10).")
  private long headerTimeoutSecs = 10;

  @Option(
      names = "--trusted-proxy",
      paramLabel = "CIDR",
      description =
          "HTTP: a reverse proxy whose Forwarded or X-Forwarded-For/-Proto headers name the client and its scheme (an address or CIDR block, e.g. 10.0.0.0/8; repeatable). Others' such headers are ignored.")
  private List<String> trustedProxies = new ArrayList<>();

  @Option(
      names = "--max-requests",
      paramLabel = "N",
      description =
          "HTTP: most MCP requests handled at once (default 256); past it a request waits up to 5 s for room, then gets 503 with Retry-After.")
  private int maxRequests = StreamableHttpTransport.DEFAULT_MAX_REQUESTS;

  @Option(
      names = "--authoring-dir",
      paramLabel = "DIR",
      description =
          "A folder the bundled skill-authoring tools may validate and create skills in (repeatable; default: the skill roots, never the bundled ones).")
  private List<Path> authoringDirs = new ArrayList<>();

  @Option(
      names = "--plugins",
      paramLabel = "DIR",
      description =
          "A folder of host-adapter plugin jars (repeatable); SKILLPORT_PLUGINS and ~/.skillport/plugins are searched too.")
  private List<Path> plugins = new ArrayList<>();

  @Option(
      names = "--instance",
      paramLabel = "NAME",
      description =
          "This server's name on the machine: its job and workflow records are kept in"
              + " ~/.skillport/jobs/NAME (default: http, or stdio; while another server holds"
              + " a default name, the next free NAME-2, NAME-3... is taken).")
  private String instance;

  // The store folder this start creates, removed again if the start fails; null when it existed.
  private NewStoreFolder newStoreFolder;
  private boolean storeFolderKeptByUse;

  @Option(
      names = "--adapter-setting",
      paramLabel = "ADAPTER.KEY=VALUE",
      description =
          "A setting for one host adapter (repeatable), e.g. blender.executable=/opt/blender/blender.")
  private List<String> adapterSettings = new ArrayList<>();

  @Option(
      names = "--blender",
      paramLabel = "PATH",
      description =
          "The Blender executable for the Blender adapter plugin (short for --adapter-setting"
              + " blender.executable=PATH; else SKILLPORT_BLENDER, else blender on PATH).")
  private Path blender;

  @Option(
      names = "--jobs-dir",
      paramLabel = "DIR",
      description = "Keep job and workflow records in DIR instead (one server at a time).")
  private Path jobsDir;

  @Option(names = "--shared-tasks", paramLabel = "DIR", hidden = true)
  private Path sharedTasks;

  @Option(
      names = "--store",
      paramLabel = "URL",
      description =
          "Where jobs, tasks, workflow runs and the audit trail live: mvstore: (the default, a"
              + " file per --instance) or postgresql://host:port/database?user=NAME, shared by"
              + " every instance of a fleet (password from PGPASSWORD, ~/.pgpass or"
              + " --store-password-file). SKILLPORT_STORE gives it too.")
  private String store;

  @Option(
      names = "--store-password-file",
      paramLabel = "FILE",
      description = "A file holding the PostgreSQL store's password (first line).")
  private Path storePasswordFile;

  @Option(
      names = "--lease",
      paramLabel = "SECONDS",
      description =
          "PostgreSQL store: how long this instance's running jobs stay its own without a"
              + " heartbeat; after it another instance marks them interrupted (default 15).")
  private long leaseSecs = PostgresStore.DEFAULT_LEASE.toSeconds();

  @Option(
      names = "--audit-retention",
      defaultValue = "30d",
      paramLabel = "DURATION",
      description =
          "PostgreSQL store: how long the fleet's audit rows are kept (30d, 12h...; off keeps"
              + " them); older ones are removed in small batches in the background"
              + " (${DEFAULT-VALUE}).")
  private String auditRetention;

  @Option(
      names = "--idempotency-window",
      defaultValue = "24h",
      paramLabel = "DURATION",
      description =
          "How long a caller's idempotency key (Idempotency-Key header or"
              + " _meta.dcc.idempotencyKey) names the job its first call created: a retry with the"
              + " key gets that job, not a second one (${DEFAULT-VALUE}).")
  private String idempotencyWindow;

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
      names = "--dcc-python",
      paramLabel = "DCC=CMD",
      description =
          "The Python interpreter for skills of a host product, e.g. maya=/usr/autodesk/maya/bin/mayapy (repeatable). Python scripts of a product with none, and no host adapter, are refused.")
  private Map<String, String> dccPython = new LinkedHashMap<>();

  @Option(
      names = "--no-python-compat",
      description =
          "Do not put the dcc_mcp_core compatibility package on Python scripts' import path.")
  private boolean noPythonCompat;

  @Option(
      names = "--script-timeout",
      defaultValue = "60",
      paramLabel = "SECS",
      description = "Timeout of script tools that declare no timeout_hint_secs (${DEFAULT-VALUE}).")
  private int scriptTimeoutSecs;

  @Option(
      names = "--client-request-timeout",
      defaultValue = "30",
      paramLabel = "SECS",
      description =
          "How long a request to the client (roots, sampling, elicitation) waits for its answer"
              + " (${DEFAULT-VALUE}).")
  private int clientRequestTimeoutSecs;

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
      names = "--allow-dynamic-code",
      description =
          "Let callers register dynamic tools that run Python code they give (register_tool with"
              + " tool_spec.code), as scripts under the script limits. Off by default: dynamic"
              + " tools then only call existing skill tools.")
  private boolean allowDynamicCode;

  @Option(
      names = "--deny-skill",
      split = ",",
      paramLabel = "SKILL",
      description =
          "Deny this skill (repeatable): listed as denied, never loadable, its tools never listed"
              + " or called.")
  private List<String> deniedSkills = new ArrayList<>();

  @Option(
      names = "--allow-skill",
      split = ",",
      paramLabel = "SKILL",
      description =
          "Serve only the skills named (repeatable); every other skill is denied, bundled ones"
              + " too.")
  private List<String> allowedSkills = new ArrayList<>();

  @Option(
      names = "--allow-tool",
      split = ",",
      paramLabel = "SKILL/TOOL",
      description =
          "Serve only the tools named (repeatable); the other tools are removed, and a skill"
              + " none of whose tools is named is denied.")
  private List<String> allowedTools = new ArrayList<>();

  @Option(
      names = "--deny-tool",
      split = ",",
      paramLabel = "SKILL/TOOL",
      description = "Remove this tool from its skill (repeatable): never listed or called.")
  private List<String> deniedTools = new ArrayList<>();

  @Option(
      names = "--allow-path",
      paramLabel = "[NAME=]DIR",
      description =
          "A folder that tool arguments declared as paths may point into when the tool's"
              + " paths: names allowed, or allowed:NAME (repeatable).")
  private List<String> allowedPaths = new ArrayList<>();

  @Option(
      names = "--audit-log",
      paramLabel = "FILE",
      description =
          "Append one JSON line per tool call (never argument values) to FILE. With a"
              + " postgresql:// --store the fleet's audit trail is kept in the store as well.")
  private Path auditLog;

  @Option(
      names = "--secret",
      split = ",",
      paramLabel = "NAME",
      description =
          "A name whose values are secret, beside the built-in words (token, key, secret,"
              + " password...): an environment variable, whose value is then masked in every"
              + " output, or a YAML/JSON key; * globs allowed (repeatable).")
  private List<String> secretNames = new ArrayList<>();

  @Option(
      names = "--trust-bridge",
      split = ",",
      paramLabel = "SKILL",
      description =
          "Run this skill's MCP bridge (its mcp.yaml's command), as this server first reads it"
              + " (repeatable).")
  private List<String> trustedBridges = new ArrayList<>();

  @Option(
      names = "--trust-file",
      paramLabel = "FILE",
      description =
          "The trusted-bridges file (default ~/.skillport/trusted-bridges.yaml), which"
              + " skillport trust-bridge writes.")
  private Path trustFile;

  @Option(
      names = "--bridge-idle",
      defaultValue = "600",
      paramLabel = "SECS",
      description = "Stop a bridged MCP server after this long without a call (${DEFAULT-VALUE}).")
  private int bridgeIdleSecs;

  @Option(
      names = "--no-start-cache",
      description =
          "Ignored: a stdio start keeps nothing between starts. Accepted so that client"
              + " configurations that pass it still start.")
  // Read by nobody: the option only has to parse (decision 0045).
  private boolean noStartCache;

  @Option(
      names = "--gateway",
      paramLabel = "auto|URL|off",
      description =
          "With --http: register in the gateway registry; auto also starts the gateway on"
              + " 127.0.0.1:--gateway-port when none answers and revives it when it dies; a URL"
              + " names a gateway run elsewhere (default ${DEFAULT-VALUE}).")
  private String gateway = "off";

  @Option(names = "--no-gateway", description = "Do not register with a gateway (--gateway off).")
  private boolean noGateway;

  @Option(
      names = "--gateway-port",
      paramLabel = "N",
      description = "The port of the gateway --gateway auto ensures (default ${DEFAULT-VALUE}).")
  private int gatewayPort = GatewayCommand.DEFAULT_PORT;

  @Option(
      names = "--gateway-registry",
      paramLabel = "DIR",
      description = "The gateway registry folder (default ~/.skillport/gateway).")
  private Path gatewayRegistry;

  @Option(
      names = "--gateway-store",
      paramLabel = "URL",
      description =
          "With --gateway URL: register in the gateway registry in this PostgreSQL store"
              + " (postgresql://host:port/database?user=NAME; its password as for --store)"
              + " instead of a registry folder.")
  private String gatewayStore;

  @Option(
      names = "--gateway-registration-token-file",
      paramLabel = "FILE",
      description =
          "With --gateway-store: prove this registration token (the file's first line) so that"
              + " gateways that require it route to this instance.")
  private Path gatewayTokenFile;

  @Option(
      names = "--gateway-probe-interval",
      paramLabel = "SECONDS",
      description =
          "The probe interval of a gateway --gateway auto starts (default ${DEFAULT-VALUE}).")
  private int gatewayProbeSecs = 5;

  @Option(names = "--verbose", description = "On a startup error, print its stack trace as well.")
  private boolean verbose;

  @Override
  public Integer call() throws Exception {
    AdapterSettings settings = adapterSettings();
    CliEnvironment env = parent.environment();
    if (mode.http) {
      checkAddress();
    }
    checkInstance();
    checkGateway();
    if (pageSize < 1) {
      throw StartupFailure.usage("--page-size " + pageSize + " is not a page size: give 1 or more");
    }
    if (clientRequestTimeoutSecs < 1) {
      throw StartupFailure.usage(
          "--client-request-timeout "
              + clientRequestTimeoutSecs
              + " is not a wait: give 1 or more");
    }
    // Before anything is read or logged: every output channel masks what is secret.
    // The server's one redactor, handed to everything that writes out (and to the log).
    Redactor redactor = parent.redactor();
    redactor.configure(SecretNames.defaults().with(secretNames), env.variables());
    authTokens.forEach(redactor::addSecret);
    adminTokens.forEach(redactor::addSecret);
    checkTokens();
    checkListing();
    SkillAccess access = skillAccess();
    PathRules pathRules = pathRules(env);
    StateSigner signer = stateSigner(env);
    List<SkillRoot> roots = new ArrayList<>(commandLineRoots(env));
    roots.addAll(SkillRoots.resolve(List.of(), env.variables(), env.userHome(), null, List.of()));
    String version = SkillportCommand.Version.number();
    List<Path> pluginFolders = PluginFolders.resolve(plugins, env.variables(), env.userHome());

    ServeResources resources = new ServeResources();
    Thread hook = resources.shutdownHook(STOP_BUDGET);
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      // The plugins load while the stores open and the execution is built: the first catalog,
      // which reads the skills they ship, starts once both are done.
      PluginsLoading plugins =
          resources.add("plugins", PluginsLoading.start(pluginFolders, version, settings));
      // The authoring tools act in the roots given so far (not the bundled copy) or the named ones.
      AuthoringFolders authoring =
          new AuthoringFolders(
              authoringDirs.isEmpty()
                  ? roots.stream().map(SkillRoot::path).toList()
                  : authoringDirs.stream().map(env.workingDirectory()::resolve).toList());
      // Unpacked for this run only and served at system scope, like the skills plugins ship.
      if (!noBundled) {
        BundledSkills bundled = resources.add("bundled skills", BundledSkills.unpack());
        roots.add(new SkillRoot(bundled.root(), Scope.SYSTEM, "bundled"));
      }
      ServeConfig config =
          ServeConfig.of(roots)
              // Every processor reads skills: the first tools/list waits for the whole catalog,
              // and the loader's result does not depend on its parallelism.
              .withLoaderOptions(
                  LoaderOptions.DEFAULTS
                      .withStrict(strict)
                      .withParallelism(Runtime.getRuntime().availableProcessors()))
              .withPreload(preload)
              .withPageSize(pageSize)
              .withClientRequestTimeout(Duration.ofSeconds(clientRequestTimeoutSecs))
              .withWatch(!noWatch)
              .withHandlers(new AuthoringHandlers(authoring).handlers());
      Stores stores = openStores(env, resources, signer);
      // Closed after the server and the job scheduler (resources close newest first): the server
      // stops taking calls, jobs are marked interrupted and their scripts cancelled, then every
      // script still running, and every process a script left behind, is killed.
      ScriptToolRunner scripts = resources.add("script processes", scriptRunner(env));
      // Before anything runs: the script trees this instance's previous run left (it was killed)
      // are killed, and this run's scripts are recorded for the next (decision 0054).
      ScriptRuns runs = scriptRuns(env, stores);
      if (runs != null) {
        int killed = runs.killLeftovers();
        if (killed > 0) {
          parent
              .output()
              .stderr()
              .println(
                  "skillport: killed "
                      + killed
                      + " script processes this instance's previous run left running");
        }
        scripts.recordRuns(runs);
      }
      JobScheduler jobs =
          resources.add(
              "job scheduler",
              new JobScheduler(stores.jobs(), Math.max(1, jobWorkers), stores.instance()));
      jobs.keyWindow(DurationOption.parse("--idempotency-window", idempotencyWindow));
      // A fleet's calls are audited in its store (and in --audit-log FILE when given).
      CallGuard guard =
          resources.add(
              "call guard", CallGuard.of(access, pathRules, auditLog, stores.audit(), redactor));
      // Embeddings are kept beside the stores, so a restart embeds only what changed.
      SemanticSearch semantic =
          resources.add(
              "semantic search",
              SemanticSearch.start(
                  searchMode(env),
                  stores.dir() == null ? null : stores.dir().resolve(EMBEDDINGS_FILE)));
      ServeExecution execution =
          new ServeExecution(
              scripts,
              jobs,
              guard,
              stores.workflows(),
              listingPolicy(),
              toolListingThreshold,
              signer,
              redactor,
              semantic);
      // Launched, not started: the transport takes the client's handshake while the catalog
      // loads, and every other request waits for it (decision record 0014).
      SkillportServer server =
          resources.add(
              "server",
              SkillportServer.launch(
                  config, version, plugins.join(), bridges(env, version), execution));
      if (mode.http) {
        return serveHttp(server, resources);
      }
      // The protocol owns the process's stdout; it is opened here, not through System.out, so
      // nothing else in the process can write to it by accident.
      keepStoreFolder();
      server.transportStarted("stdio");
      // Only GET /metrics scrapes the Prometheus series, and a stdio server has no HTTP endpoint.
      server.metrics().stopCounting();
      InputStream in = new FileInputStream(FileDescriptor.in);
      OutputStream out = new FileOutputStream(FileDescriptor.out);
      new StdioTransport(server.mcp(), in, out).run();
      return SkillportCommand.EXIT_OK;
    } finally {
      resources.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: the hook runs (and finds everything closed)
      }
    }
  }

  private int serveHttp(SkillportServer server, ServeResources resources) throws Exception {
    StreamableHttpTransport.Builder builder =
        StreamableHttpTransport.builder(server.mcp())
            .host(host)
            .port(port)
            // /readyz answers 200 once the first catalog is served and every adapter is ready,
            // and 503 naming the store while the job store cannot write.
            .readinessReport(server::readiness)
            // The REST skill API at /v1/, the page for people at / and Prometheus metrics at
            // /metrics, same auth as /mcp.
            .routes(server.httpRoutes());
    if (!authTokens.isEmpty()) {
      builder.authTokens(authTokens);
    }
    builder.adminTokens(adminTokens);
    builder
        .maxSessions(maxSessions)
        .sessionIdleTimeout(Duration.ofSeconds(sessionIdleSecs))
        .headerTimeout(Duration.ofSeconds(headerTimeoutSecs));
    if (maxConnections != null) {
      builder.maxConnections(maxConnections);
    }
    builder.maxRequests(maxRequests).edgeListener(server.metrics().edgeListener());
    for (String proxy : trustedProxies) {
      builder.trustedProxy(proxy);
    }
    StreamableHttpTransport http = resources.add("HTTP endpoint", builder.build());
    // Closed before the endpoint (newest first): the live pages' streams end, so stopping the
    // HTTP server does not wait for them.
    resources.add("live pages", server.webRoutes());
    try {
      http.start();
    } catch (IOException e) {
      throw bindFailure(e);
    }
    keepStoreFolder();
    server.transportStarted(http.uri().toString());
    parent.output().stderr().println("skillport: serving MCP at " + http.uri());
    parent.output().stderr().flush();
    joinGateway(server, http.uri(), resources);
    resources.awaitStop();
    return SkillportCommand.EXIT_OK;
  }

  /** Registers with the gateway as --gateway says; with auto, ensures one runs. */
  private void joinGateway(SkillportServer server, URI uri, ServeResources resources) {
    InstanceGateway.Choice choice = InstanceGateway.choice(noGateway ? "off" : gateway);
    if (choice == InstanceGateway.Choice.OFF) {
      return;
    }
    CliEnvironment env = parent.environment();
    if (gatewayStore != null) {
      joinGatewayStore(server, uri, resources, env);
      return;
    }
    Path folder = GatewayCommand.registryFolder(env, gatewayRegistry);
    GatewayMembership membership =
        InstanceGateway.membership(
            choice,
            folder,
            InstanceGateway.entry(instance, uri, server, SkillportCommand.Version.number()),
            new CatalogDigest(server.service()::catalog),
            gatewayPort,
            gatewayProbeSecs);
    resources.add("gateway membership", membership);
    try {
      membership.start();
    } catch (IOException e) {
      LOG.warn("cannot register in the gateway registry {}: {}", folder, e.getMessage());
    }
  }

  /** Registers in the PostgreSQL gateway registry of --gateway-store (decision 0063). */
  private void joinGatewayStore(
      SkillportServer server, URI uri, ServeResources resources, CliEnvironment env) {
    StoreUrl url =
        StoreUrl.parse(gatewayStore, storePasswordFile, env.variables(), env.workingDirectory());
    if (!(url instanceof StoreUrl.Postgres pg)) {
      throw StartupFailure.usage("--gateway-store takes a postgresql:// URL");
    }
    PostgresRegistry registry;
    try {
      registry =
          PostgresRegistry.open(
              pg.location(),
              env.variables(),
              gatewayTokenFile == null ? null : env.workingDirectory().resolve(gatewayTokenFile));
    } catch (IOException e) {
      throw StartupFailure.usage(e.getMessage());
    } catch (RuntimeException e) {
      throw StartupFailure.environment(
          "cannot use the gateway registry " + pg.location() + ": " + e.getMessage(), e);
    }
    resources.add("gateway registry", registry);
    GatewayMembership membership =
        new GatewayMembership(
            registry,
            InstanceGateway.entry(instance, uri, server, SkillportCommand.Version.number()),
            new CatalogDigest(server.service()::catalog),
            java.util.Optional.empty(),
            new dev.skillport.gateway.InstanceClient(SkillportCommand.Version.number()),
            java.time.Clock.systemUTC());
    resources.add("gateway membership", membership);
    try {
      membership.start();
    } catch (IOException e) {
      LOG.warn("cannot register in the gateway registry {}: {}", registry, e.getMessage());
    }
  }

  private StartupFailure bindFailure(IOException e) {
    String where = host + ":" + port;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException bind) {
        String reason = String.valueOf(bind.getMessage());
        if (reason.contains("in use")) {
          return StartupFailure.environment(
              "port "
                  + port
                  + " on "
                  + host
                  + " is in use by another program (perhaps another Skillport): stop it, or"
                  + " choose another port with --port N (--port 0 takes any free one)",
              e);
        }
        return StartupFailure.environment(
            "cannot listen on " + where + " (" + reason + "): check --host", e);
      }
    }
    return StartupFailure.environment("cannot listen on " + where + ": " + e.getMessage(), e);
  }

  /** Port in range, host known, and a token whenever the address is reachable from elsewhere. */
  private void checkAddress() {
    if (port < 0 || port > 65535) {
      throw StartupFailure.usage(
          "--port " + port + " is not a port: give 1-65535, or 0 for any free port");
    }
    if (maxSessions < 1
        || sessionIdleSecs < 1
        || headerTimeoutSecs < 1
        || maxRequests < 1
        || (maxConnections != null && maxConnections < 1)) {
      throw StartupFailure.usage(
          "--max-sessions, --session-idle-timeout, --max-connections, --max-requests and"
              + " --header-timeout take a positive number");
    }
    for (String proxy : trustedProxies) {
      try {
        StreamableHttpTransport.addressBlock(proxy);
      } catch (IllegalArgumentException e) {
        throw StartupFailure.usage("--trusted-proxy " + e.getMessage());
      }
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw StartupFailure.usage(
          "--host " + host + " is not an address of this machine: give an IP address or name");
    }
    if (!address.isLoopbackAddress() && authTokens.isEmpty() && adminTokens.isEmpty()) {
      throw StartupFailure.usage(
          "--host "
              + host
              + " is reachable from other machines: give --auth-token TOKEN (clients send it as"
              + " 'Authorization: Bearer TOKEN'), or serve on 127.0.0.1");
    }
  }

  private void checkGateway() {
    try {
      InstanceGateway.choice(noGateway ? "off" : gateway);
    } catch (IllegalArgumentException e) {
      throw StartupFailure.usage("--gateway " + e.getMessage());
    }
    if (gatewayStore != null
        && InstanceGateway.choice(noGateway ? "off" : gateway) != InstanceGateway.Choice.URL) {
      throw StartupFailure.usage(
          "--gateway-store registers with gateways run elsewhere: give --gateway URL with it");
    }
    if (gatewayTokenFile != null && gatewayStore == null) {
      throw StartupFailure.usage("--gateway-registration-token-file goes with --gateway-store");
    }
    if (gatewayPort < 1 || gatewayPort > 65535 || gatewayProbeSecs < 1) {
      throw StartupFailure.usage(
          "--gateway-port takes a port (1-65535), --gateway-probe-interval 1 or more seconds");
    }
  }

  private void checkTokens() {
    for (String token : authTokens) {
      if (token.isBlank()) {
        throw StartupFailure.usage("--auth-token is empty: give a token of printable characters");
      }
    }
    for (String token : adminTokens) {
      if (token.isBlank()) {
        throw StartupFailure.usage("--admin-token is empty: give a token of printable characters");
      }
    }
  }

  private ListingPolicy listingPolicy() {
    return ListingPolicy.of(toolListing)
        .orElseThrow(
            () ->
                StartupFailure.usage(
                    "--tool-listing "
                        + toolListing
                        + " is not a policy: give all, catalog or auto"));
  }

  private void checkListing() {
    listingPolicy();
    if (toolListingThreshold < 0) {
      throw StartupFailure.usage(
          "--tool-listing-threshold " + toolListingThreshold + " is negative: give 0 or more");
    }
  }

  private SkillAccess skillAccess() {
    try {
      return SkillAccess.ofSkills(allowedSkills, deniedSkills).withTools(allowedTools, deniedTools);
    } catch (IllegalArgumentException e) {
      throw StartupFailure.usage(e.getMessage());
    }
  }

  /** The places path arguments may name: the working directory and the --allow-path folders. */
  private PathRules pathRules(CliEnvironment env) {
    try {
      return PathRules.of(env.workingDirectory(), allowedPaths);
    } catch (IllegalArgumentException e) {
      throw StartupFailure.usage(e.getMessage());
    }
  }

  /** The signer of state handed to stateless clients: the configured key, else a random one. */
  private StateSigner stateSigner(CliEnvironment env) {
    String key = env.variables().get(STATE_KEY_VARIABLE);
    if (stateKeyFile != null) {
      Path file = env.workingDirectory().resolve(stateKeyFile);
      try {
        key = Files.readString(file).strip();
      } catch (IOException e) {
        throw StartupFailure.environment(
            "cannot read the state key file " + file + " (" + e.getMessage() + ")", e);
      }
      if (key.isEmpty()) {
        throw StartupFailure.usage("--state-key-file " + file + " is empty: put a secret in it");
      }
    }
    if (key != null && !key.isBlank()) {
      parent.redactor().addSecret(key);
    }
    return StateSigner.of(key, Clock.systemUTC());
  }

  private void checkInstance() {
    if (instance != null && !INSTANCE_NAME.matcher(instance).matches()) {
      throw StartupFailure.usage(
          "--instance "
              + instance
              + " is not a name: use letters, digits, '.', '_' and '-' (at most 64)");
    }
    if (instance != null && jobsDir != null) {
      throw StartupFailure.usage("give --instance or --jobs-dir, not both");
    }
    if (sharedTasks != null) {
      throw StartupFailure.usage(
          "--shared-tasks was removed: give every instance the same --store"
              + " postgresql://host:port/database (docs/running.md, \"A fleet on PostgreSQL\")");
    }
    if (leaseSecs < 1) {
      throw StartupFailure.usage("--lease " + leaseSecs + " is not a lease: give 1 or more");
    }
    auditRetention();
    DurationOption.parse("--idempotency-window", idempotencyWindow);
  }

  /** The {@code --skills} roots; each must be a folder this process can read. */
  private List<SkillRoot> commandLineRoots(CliEnvironment env) {
    List<SkillRoot> roots =
        SkillRoots.resolve(skills, Map.of(), env.userHome(), null, List.of()).stream()
            .map(
                r -> new SkillRoot(env.workingDirectory().resolve(r.path()), r.scope(), r.origin()))
            .toList();
    for (SkillRoot root : roots) {
      Path path = root.path();
      if (!Files.exists(path)) {
        throw StartupFailure.usage("--skills " + path + ": no such folder");
      }
      if (!Files.isDirectory(path)) {
        throw StartupFailure.usage(
            "--skills " + path + " is not a folder: give the folder that holds the skills");
      }
      try (Stream<Path> entries = Files.list(path)) {
        entries.findFirst();
      } catch (IOException | SecurityException e) {
        throw StartupFailure.environment(
            "cannot read the skill folder "
                + path
                + " ("
                + e.getClass().getSimpleName()
                + "): check its permissions",
            e);
      }
    }
    return roots;
  }

  /** The server serves: the store folder its start created stays. */
  private void keepStoreFolder() {
    // A default stdio folder is kept only if the session leaves records in it (see openStores).
    if (newStoreFolder != null && !storeFolderKeptByUse) {
      newStoreFolder.keep();
    }
  }

  /** {@code --search}, else {@code SKILLPORT_SEARCH}, else lexical (decision 0049). */
  private SemanticSearch.Mode searchMode(CliEnvironment env) {
    if (searchMode != null) {
      return searchMode;
    }
    String fromEnv = env.variables().get("SKILLPORT_SEARCH");
    if (fromEnv == null || fromEnv.isBlank()) {
      return SemanticSearch.Mode.LEXICAL;
    }
    return SemanticSearch.Mode.parse(fromEnv.strip())
        .orElseThrow(
            () -> StartupFailure.usage("SKILLPORT_SEARCH=" + fromEnv + ": give hybrid or lexical"));
  }

  /** {@code --audit-retention}: how long audit rows are kept, null for {@code off}. */
  private Duration auditRetention() {
    return "off".equals(auditRetention)
        ? null
        : DurationOption.parse("--audit-retention", auditRetention);
  }

  /**
   * The job and workflow stores of this run; {@code dir} is the local folder holding them, null for
   * a shared store (the search embeddings are then not kept across restarts).
   */
  private record Stores(
      JobStore jobs, WorkflowStore workflows, Path dir, AuditTrail audit, String instance) {}

  /**
   * Opens this server's stores: {@code --jobs-dir}, else {@code ~/.skillport/jobs/NAME} for {@code
   * --instance NAME}, else for the default name ({@code http} or {@code stdio}) or, while another
   * server holds it, the first free {@code NAME-2}, {@code NAME-3}...
   */
  private Stores openStores(CliEnvironment env, ServeResources resources, StateSigner signer) {
    StoreUrl url =
        StoreUrl.parse(store, storePasswordFile, env.variables(), env.workingDirectory());
    if (url instanceof StoreUrl.Postgres pg) {
      if (jobsDir != null) {
        throw StartupFailure.usage("give --store or --jobs-dir, not both");
      }
      PostgresStore shared =
          resources.add(
              "store",
              FleetStores.open(
                  pg.location(),
                  fleetInstance(),
                  Duration.ofSeconds(leaseSecs),
                  signer,
                  env.variables()));
      shared.retain(auditRetention());
      return new Stores(shared.jobs(), shared.workflows(), null, shared.audit(), shared.instance());
    }
    if (jobsDir != null) {
      return openStores(env.workingDirectory().resolve(jobsDir), resources, true);
    }
    Path home = env.userHome() != null ? env.userHome() : env.workingDirectory();
    Path base = home.resolve(".skillport").resolve("jobs");
    if (instance != null) {
      return openStores(base.resolve(instance), resources, true);
    }
    String name = mode.http ? "http" : "stdio";
    for (int slot = 1; slot <= DEFAULT_INSTANCE_SLOTS; slot++) {
      Stores stores =
          openStores(base.resolve(slot == 1 ? name : name + "-" + slot), resources, false);
      if (stores != null) {
        return stores;
      }
    }
    throw StartupFailure.environment(
        "the job stores "
            + base.resolve(name)
            + " to "
            + name
            + "-"
            + DEFAULT_INSTANCE_SLOTS
            + " are all in use by other Skillport servers: name this one with --instance NAME",
        null);
  }

  /**
   * This instance's name in a shared store: {@code --instance NAME} (a restart under the same name
   * ends the jobs its previous run left at once), else the host name and process id.
   */
  private String fleetInstance() {
    if (instance != null) {
      return instance;
    }
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      host = "localhost";
    }
    return host + "-" + ProcessHandle.current().pid();
  }

  /** The stores in {@code dir}, or null when another server holds them and a retry may follow. */
  private Stores openStores(Path dir, ServeResources resources, boolean named) {
    NewStoreFolder created = NewStoreFolder.before(dir);
    if (created != null) {
      newStoreFolder = resources.add("new job store folder", created);
    }
    MvStoreJobStore jobs;
    try {
      jobs = MvStoreJobStore.open(dir);
    } catch (StoreInUseException e) {
      if (!named) {
        return null;
      }
      throw StartupFailure.environment(
          "the job store in "
              + dir
              + " is in use by another Skillport server: give this one its own --instance NAME",
          e);
    } catch (IOException e) {
      throw StartupFailure.environment(
          "cannot open the job store in "
              + dir
              + " ("
              + e.getMessage()
              + "): give a writable folder with --jobs-dir DIR",
          e);
    }
    resources.add("job store", jobs);
    try {
      MvStoreWorkflowStore workflows =
          resources.add("workflow store", MvStoreWorkflowStore.open(dir));
      if (created != null && !named && !mode.http) {
        // Closed after the job scheduler (which ends unfinished jobs as interrupted) and before
        // the stores: a default folder this start created is kept when it holds a job, a workflow
        // run or search embeddings, so a session that stored nothing leaves nothing in the home
        // folder. A folder named by --instance or --jobs-dir stays.
        storeFolderKeptByUse = true;
        resources.add("job store folder", () -> keepUnlessEmpty(created, dir, jobs, workflows));
      }
      return new Stores(jobs, workflows, dir, null, dir.getFileName().toString());
    } catch (IOException e) {
      throw StartupFailure.environment(
          "cannot open the workflow store in " + dir + " (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Keeps {@code created} when it holds a job, a workflow run or search embeddings, and when that
   * cannot be told.
   */
  private static void keepUnlessEmpty(
      NewStoreFolder created, Path dir, JobStore jobs, WorkflowStore workflows) {
    if (!jobs.all().isEmpty()
        || Files.exists(dir.resolve(EMBEDDINGS_FILE))
        || holdsWorkflowRuns(dir, workflows)) {
      created.keep();
    }
  }

  private static boolean holdsWorkflowRuns(Path dir, WorkflowStore workflows) {
    try {
      return !workflows.runs().isEmpty();
    } catch (RuntimeException closed) {
      // The workflow engine closes its store with the server: open it again to look.
    }
    try (MvStoreWorkflowStore left = MvStoreWorkflowStore.open(dir)) {
      return !left.runs().isEmpty();
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  private AdapterSettings adapterSettings() {
    AdapterSettings settings;
    try {
      settings = AdapterSettings.parse(adapterSettings);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (blender != null) {
      settings = settings.with("blender", "executable", blender.toString());
    }
    return settings;
  }

  /** The bridges this server runs: those the operator trusts, by flag or trust file. */
  private BridgeRuntime bridges(CliEnvironment env, String version) {
    Path home = env.userHome() != null ? env.userHome() : env.workingDirectory();
    Path file =
        trustFile != null ? env.workingDirectory().resolve(trustFile) : TrustFile.defaultPath(home);
    BridgeTrust trust =
        new BridgeTrust(Set.copyOf(trustedBridges), file, parent.redactor(), env.variables());
    return new BridgeRuntime(
        trust,
        parent.redactor(),
        env.variables(),
        Clock.systemUTC(),
        BridgeRuntime.Options.defaults().withIdle(Duration.ofSeconds(Math.max(1, bridgeIdleSecs))),
        version);
  }

  /**
   * This instance's run marker: beside its embedded store, or, on a shared store, in {@code
   * ~/.skillport/jobs/NAME/scripts} for {@code --instance NAME}; null for a shared store's default
   * name (host and pid: no later run has it).
   */
  private ScriptRuns scriptRuns(CliEnvironment env, Stores stores) {
    Path dir;
    if (stores.dir() != null) {
      dir = stores.dir().resolve("scripts");
    } else if (instance != null) {
      Path home = env.userHome() != null ? env.userHome() : env.workingDirectory();
      dir = home.resolve(".skillport").resolve("jobs").resolve(instance).resolve("scripts");
    } else {
      return null;
    }
    try {
      return ScriptRuns.in(dir);
    } catch (IOException e) {
      throw StartupFailure.environment(
          "cannot keep the run marker of this instance's scripts in "
              + dir
              + " ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  private ScriptToolRunner scriptRunner(CliEnvironment env) {
    ScriptPolicy policy =
        ScriptPolicy.defaults()
            .withPython(python)
            .withDefaultTimeout(Duration.ofSeconds(Math.max(1, scriptTimeoutSecs)))
            .withPassEnv(Set.copyOf(scriptEnv))
            .withDeniedInterpreters(Set.copyOf(deniedInterpreters))
            .withDccPython(dccPython)
            .withPythonCompat(!noPythonCompat)
            .withDynamicCode(allowDynamicCode);
    return new ScriptToolRunner(policy, env.variables());
  }
}
