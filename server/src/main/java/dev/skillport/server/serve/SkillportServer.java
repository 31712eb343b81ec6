package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.bridge.BridgeRuntime;
import dev.skillport.bundled.DiagnosticsHandlers;
import dev.skillport.loader.HandlerCheck;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.SkillLoader;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import dev.skillport.mcp.transport.HttpRoutes;
import dev.skillport.mcp.transport.Readiness;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.Severity;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.status.ServerIntrospection;
import dev.skillport.plugins.AdapterSettings;
import dev.skillport.plugins.PluginHost;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.registry.SessionView;
import dev.skillport.runtime.CallGuard;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.SessionState;
import dev.skillport.runtime.jobs.StoreFault;
import dev.skillport.runtime.secrets.Redactor;
import dev.skillport.server.app.CatalogReloader;
import dev.skillport.server.app.SkillAccessVerdicts;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.app.TaskView;
import dev.skillport.server.metrics.ServerMetrics;
import dev.skillport.server.prompts.CompletionsFeature;
import dev.skillport.server.prompts.PromptsFeature;
import dev.skillport.server.resources.ResourcesFeature;
import dev.skillport.server.resources.SessionViews;
import dev.skillport.server.rest.RestApi;
import dev.skillport.server.rest.RestRoutes;
import dev.skillport.server.skills.SkillsFeature;
import dev.skillport.server.workflows.WorkflowTools;
import dev.skillport.web.CatalogApp;
import dev.skillport.web.Masking;
import dev.skillport.web.SiteSources;
import dev.skillport.web.WebRoutes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Skillport: the catalog loaded (and watched), the application service, and the MCP
 * server that transports attach to.
 */
public final class SkillportServer implements AutoCloseable {
  /** How long after the first catalog is served its search index is built. */
  private static final Duration SEARCH_INDEX_DELAY = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(SkillportServer.class);

  private final CatalogReloader reloader;
  private final SkillportService service;
  private final McpServer mcp;
  private final PluginHost plugins;
  private final LiveIntrospection introspection;
  private final CompletableFuture<LoadResult> catalogLoaded;
  private final ServerMetrics metrics;
  private final SiteSources sources;
  private final WorkflowTools workflows;
  private final RestRoutes restRoutes;
  // Made by launch for want of one from the caller, so closed with the server; else null.
  private final ServeExecution ownedExecution;
  // Made at the first request for the page; guarded by this.
  private WebRoutes webRoutes;

  private SkillportServer(
      CatalogReloader reloader,
      SkillportService service,
      WorkflowTools workflows,
      McpServer mcp,
      PluginHost plugins,
      LiveIntrospection introspection,
      CompletableFuture<LoadResult> catalogLoaded,
      ServerMetrics metrics,
      SiteSources sources,
      RestRoutes restRoutes,
      ServeExecution ownedExecution) {
    this.workflows = workflows;
    this.restRoutes = restRoutes;
    this.ownedExecution = ownedExecution;
    this.metrics = metrics;
    this.sources = sources;
    this.reloader = reloader;
    this.service = service;
    this.mcp = mcp;
    this.plugins = plugins;
    this.introspection = introspection;
    this.catalogLoaded = catalogLoaded;
  }

  /**
   * What {@code /readyz} reports: the first catalog is served and every started host adapter is
   * ready (a host that crashed and is restarting makes the server not ready until it is back).
   */
  public boolean isReady() {
    return ready(catalogLoaded, plugins);
  }

  /**
   * What {@code /readyz} answers: unavailable, naming the store and its error, while the job store
   * cannot write; else {@link #isReady()}, with how search ranks ({@code search}: {@code lexical},
   * {@code embedding} while the skills are being embedded, or {@code hybrid}).
   */
  public Readiness readiness() {
    Optional<StoreFault> fault = service.jobs().store().fault();
    if (fault.isPresent()) {
      Map<String, String> report = new LinkedHashMap<>();
      report.put("store", fault.get().store());
      report.put("error", fault.get().error());
      report.put("since", fault.get().since().toString());
      return Readiness.unavailable(report);
    }
    if (!isReady()) {
      return Readiness.STARTING;
    }
    Map<String, String> report = new LinkedHashMap<>();
    report.put("status", "ready");
    report.put("search", service.catalog().searchIndex().semanticState().ranking());
    return new Readiness(true, report);
  }

  private static boolean ready(CompletableFuture<LoadResult> catalogLoaded, PluginHost plugins) {
    return catalogLoaded.isDone()
        && !catalogLoaded.isCompletedExceptionally()
        && plugins.adapters().adapters().stream().allMatch(SkillportServer::adapterReady);
  }

  private static boolean adapterReady(HostAdapter adapter) {
    try {
      return adapter.isReady();
    } catch (RuntimeException | LinkageError e) { // plugin code must not break the probe
      LOG.debug("host adapter {} failed its readiness check: {}", adapter.id(), e.toString());
      return false;
    }
  }

  /** Completes with the loader's result once the first catalog is served. */
  public CompletableFuture<LoadResult> catalogLoaded() {
    return catalogLoaded.copy();
  }

  /** Loads the skills, starts watching them if asked, and builds the MCP server. */
  public static SkillportServer start(ServeConfig config, String version) throws IOException {
    return start(config, version, List.of());
  }

  /**
   * Like {@link #start(ServeConfig, String)}, with the host-adapter plugins found in {@code
   * pluginFolders}: their handlers join the registry and their shipped skills are served at scope
   * {@code system}. A plugin that fails is reported in {@link #plugins()} and left out. Returns
   * once the first catalog is loaded.
   */
  public static SkillportServer start(ServeConfig config, String version, List<Path> pluginFolders)
      throws IOException {
    return started(launch(config, version, pluginFolders));
  }

  /**
   * Like {@link #start(ServeConfig, String)}, running what it serves with {@code execution}, which
   * the caller owns and closes after the server.
   */
  public static SkillportServer start(ServeConfig config, String version, ServeExecution execution)
      throws IOException {
    return started(
        launch(
            config,
            version,
            List.of(),
            AdapterSettings.none(),
            BridgeRuntime.none(version, execution.redactor()),
            execution));
  }

  private static UnaryOperator<LoadResult> guarded(
      CallGuard guard, UnaryOperator<LoadResult> decorator) {
    SkillAccessVerdicts verdicts = new SkillAccessVerdicts(guard.access());
    return loaded -> verdicts.apply(decorator.apply(verdicts.apply(loaded)));
  }

  private static SkillportServer started(SkillportServer server) throws IOException {
    try {
      server.catalogLoaded().join();
    } catch (CompletionException e) {
      server.close();
      throw new IOException("skills could not be loaded: " + e.getCause().getMessage(), e);
    }
    return server;
  }

  /**
   * Like {@link #start(ServeConfig, String, List)}, but returns while the first catalog is still
   * loading on a thread of its own, so a transport can take clients at once: {@code initialize}
   * answers immediately and every other request waits for the catalog ({@link #catalogLoaded()}).
   */
  public static SkillportServer launch(ServeConfig config, String version, List<Path> pluginFolders)
      throws IOException {
    return launch(config, version, pluginFolders, AdapterSettings.none());
  }

  /**
   * Like {@link #launch(ServeConfig, String, List)}, giving each host adapter its group of {@code
   * adapterSettings} before it starts.
   */
  public static SkillportServer launch(
      ServeConfig config, String version, List<Path> pluginFolders, AdapterSettings adapterSettings)
      throws IOException {
    return launch(config, version, pluginFolders, adapterSettings, BridgeRuntime.none(version));
  }

  /**
   * Like {@link #launch(ServeConfig, String, List, AdapterSettings)}, running bridge skills with
   * {@code bridges} (which the server closes with itself).
   */
  public static SkillportServer launch(
      ServeConfig config,
      String version,
      List<Path> pluginFolders,
      AdapterSettings adapterSettings,
      BridgeRuntime bridges)
      throws IOException {
    return launch(config, version, pluginFolders, adapterSettings, bridges, null);
  }

  /**
   * Like {@link #launch(ServeConfig, String, List, AdapterSettings, BridgeRuntime)}, running what
   * it serves with {@code execution}, which the caller owns; null makes an in-memory one that the
   * server owns and closes with itself.
   */
  public static SkillportServer launch(
      ServeConfig config,
      String version,
      List<Path> pluginFolders,
      AdapterSettings adapterSettings,
      BridgeRuntime bridges,
      ServeExecution execution)
      throws IOException {
    return launch(
        config,
        version,
        PluginHost.load(pluginFolders, version, adapterSettings),
        bridges,
        execution);
  }

  /**
   * Like {@link #launch(ServeConfig, String, List, AdapterSettings, BridgeRuntime, ServeExecution)}
   * with {@code plugins} the caller loaded (while it built the rest, say); the server closes them
   * with itself.
   */
  public static SkillportServer launch(
      ServeConfig config,
      String version,
      PluginHost plugins,
      BridgeRuntime bridges,
      ServeExecution execution) {
    ServeExecution run = execution != null ? execution : ServeExecution.inMemory(config);
    // Bound by this server alone: the configuration's, the plugins', then its own diagnostics'.
    HandlerRegistry handlers = new HandlerRegistry();
    config.handlers().forEach(handlers::register);
    plugins.handlers().forEach(handlers::register);
    List<SkillRoot> roots = new ArrayList<>(config.roots());
    roots.addAll(plugins.skillRoots());
    // Every handler there will be is known here (the diagnostics ones are registered below): a
    // skill naming a handler no one registers is skipped, not offered with tools that cannot run.
    HandlerCheck handlerCheck =
        new HandlerCheck(
            id -> handlers.find(id).isPresent() || DiagnosticsHandlers.IDS.contains(id),
            Severity.ERROR);
    // Every catalog the reloader publishes keeps the semantic search of the one it replaces.
    CatalogHolder holder = new CatalogHolder(Catalog.of(0, List.of(), List.of(), run.search()));
    CatalogReloader reloader =
        new CatalogReloader(
            new SkillLoader(config.loaderOptions()),
            roots,
            holder,
            Duration.ofMillis(300),
            // The handler check, then the operator's lists before the bridges (a denied skill's
            // bridge never starts) and after them (a bridged tool is denied like any other).
            guarded(run.guard(), loaded -> bridges.decorate(handlerCheck.apply(loaded))),
            run.redactor());
    bridges.onCatalogChange(reloader::republish);
    CompletableFuture<LoadResult> first = new CompletableFuture<>();
    // The skills load while the rest of the server is built: on a stdio start the two together
    // are most of the time to the first answer. What is built after listens from its start
    // (reload listeners hear the last reload; the service binds handlers at first use).
    Thread loading =
        new Thread(
            () -> loadFirstCatalog(reloader, roots.size(), config.watch(), holder, first),
            "skillport-catalog");
    loading.setDaemon(true);
    loading.start();
    SkillportService service =
        SkillportService.builder(holder, handlers)
            .scripts(run.scripts())
            .jobs(run.jobs())
            .guard(run.guard())
            .preload(config.preload())
            .pageSize(config.pageSize())
            .hosts(plugins.adapters())
            .bridges(bridges)
            .stateless(run.listingPolicy(), run.autoListingThreshold(), run.signer())
            .sessionTools((catalog, jobs) -> new WorkflowTools(catalog, jobs, run.workflowStore()))
            .redactor(run.redactor())
            .build();
    WorkflowTools workflows = (WorkflowTools) service.sessionTools();
    // The bundled skillport-diagnostics tools report on this server, so they are bound here.
    LiveIntrospection introspection =
        new LiveIntrospection(
            version, Clock.systemUTC(), service, plugins, run.guard().trail().orElse(null));
    new DiagnosticsHandlers(introspection).handlers().forEach(handlers::register);
    Surfaces surfaces = features(holder, config, plugins, service, bridges);
    ServerMetrics metrics =
        new ServerMetrics(
            service::catalog,
            () -> service.jobs().activeByStatus(),
            service::openSessions,
            service::runningScripts);
    service
        .jobs()
        .store()
        .coordination()
        .ifPresent(
            shared -> {
              metrics.instance(shared.instance(), "shared");
              metrics.fleetJobs(shared::activeByInstance);
            });
    service.calls().addListener(metrics::onCall);
    // This instance counts the jobs it ran; another instance's changes reach the observers too.
    String here = service.jobs().instance();
    service.addJobObserver(
        job -> {
          if (job.instance() == null || job.instance().equals(here)) {
            metrics.onJob(job);
          }
        });
    workflows.addRunObserver(metrics::onRun);
    reloader.addListener(metrics::onReload);
    // What the page and the MCP App show, read when they are rendered.
    SiteSources sources =
        new SiteSources(
            "skillport",
            service::catalog,
            introspection,
            (viewer, limit) ->
                service.jobs().recent(Integer.MAX_VALUE).stream()
                    .filter(job -> viewer.sees(job.owner()))
                    .limit(limit)
                    .toList(),
            workflows::recentRuns,
            workflows::seesRun,
            () -> ready(first, plugins),
            // Skill-provided text, diagnostics and job errors pass the server's one redactor.
            new RedactorMasking(service.redactor()),
            service.jobs().instance());
    CatalogApp app = new CatalogApp(sources);
    surfaces.resources().addExtensionProvider(CatalogApp.EXTENSION, app);
    List<McpFeature> all =
        new ArrayList<>(workflowFeatures(surfaces.features(), workflows, metrics));
    all.add(new Surface(CatalogApp::declare, b -> {}));
    // Every request to a client (roots, sampling, elicitation) gives up after this long.
    all.add(new Surface(c -> {}, b -> b.clientRequestTimeout(config.clientRequestTimeout())));
    McpServer mcp =
        SkillportMcp.create(
            service,
            new ServerInfo(
                "skillport",
                version,
                "Skills are loaded on demand: call search_skills to find one, load_skill to get its"
                    + " tools."),
            Math.max(4, Runtime.getRuntime().availableProcessors() * 4),
            all,
            first,
            app);
    surfaces.resources().attach(mcp.changes());
    // A task's changes reach the subscriptions/listen streams of its owner that watch it; on a
    // shared store this includes the tasks other instances run.
    service.addJobObserver(
        job -> {
          if (mcp.changes().watchesTask(job.id())) {
            mcp.changes().taskUpdated(job.id(), job.owner(), TaskView.detailed(job));
          }
        });
    bridges.onContentChange(
        skill -> {
          service.announceContent(skill);
          mcp.changes().promptsListChanged();
          mcp.changes().resourcesListChanged();
        });
    SkillportServer server =
        new SkillportServer(
            reloader,
            service,
            workflows,
            mcp,
            plugins,
            introspection,
            first,
            metrics,
            sources,
            new RestRoutes(
                new RestApi(service, version), () -> ready(first, plugins), metrics::onRestRequest),
            execution == null ? run : null);
    return server;
  }

  private static void loadFirstCatalog(
      CatalogReloader reloader,
      int rootCount,
      boolean watch,
      CatalogHolder holder,
      CompletableFuture<LoadResult> first) {
    try {
      LoadResult result = reloader.reload();
      for (Diagnostic d : result.diagnostics()) {
        if (d.isError()) {
          LOG.warn("{}", d.format());
        } else {
          LOG.debug("{}", d.format());
        }
      }
      LOG.info("{} skills discovered under {} roots", result.skills().size(), rootCount);
      if (watch) {
        try {
          reloader.start();
        } catch (IOException e) {
          // The catalog is loaded and served; only later edits go unnoticed.
          LOG.warn("skill roots are not watched, edits need a restart: {}", e.getMessage());
        }
      }
      first.complete(result);
      // Built a moment later, so the first search does not pay for it and the first listing,
      // which the client is waiting for, does not share the machine with it.
      Thread.sleep(SEARCH_INDEX_DELAY.toMillis());
      holder.current().searchIndex();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) { // the waiting requests must be answered either way
      LOG.error("skills could not be loaded", e);
      first.completeExceptionally(e);
    }
  }

  /** {@code features} plus the session tracking the workflow tools and the metrics need. */
  private static List<McpFeature> workflowFeatures(
      List<McpFeature> features, WorkflowTools workflows, ServerMetrics metrics) {
    List<McpFeature> all = new ArrayList<>(features);
    all.add(new Surface(caps -> {}, b -> b.sessionListener(workflows.sessionListener())));
    all.add(
        new Surface(
            caps -> {},
            b ->
                b.sessionListener(metrics.sessionListener())
                    .requestListener(metrics.requestListener())));
    return all;
  }

  /** The MCP surfaces beyond tools, and the resources surface among them. */
  private record Surfaces(List<McpFeature> features, ResourcesFeature resources) {}

  /** The MCP surfaces beyond tools. */
  private static Surfaces features(
      CatalogHolder holder,
      ServeConfig config,
      PluginHost plugins,
      SkillportService service,
      BridgeRuntime bridges) {
    SessionViews views =
        new SessionViews() {
          @Override
          public SessionView of(RequestContext ctx) throws McpException {
            SessionState state = SkillportMcp.sessionState(service, ctx);
            // The listing policy is about tools: a stateless request lists the prompts and
            // resources of every skill it may get and read them from.
            return state.isStateless() ? state.view() : state.listedView();
          }

          @Override
          public SessionView reachable(RequestContext ctx) throws McpException {
            return SkillportMcp.sessionState(service, ctx).view();
          }

          @Override
          public SessionView stateless() {
            return service.statelessState().view();
          }
        };
    // Host adapters' resources (a DCC's open scene) are served beside the configured providers.
    List<ResourceProvider> providers = new ArrayList<>(config.resourceProviders());
    providers.addAll(plugins.resourceProviders());
    ResourcesFeature resources =
        new ResourcesFeature(
            holder, views, providers, config.pageSize(), bridges, service.redactor());
    PromptsFeature prompts =
        new PromptsFeature(
            holder,
            views,
            resources,
            service::signer,
            config.pageSize(),
            bridges,
            service.redactor());
    CompletionsFeature completions = new CompletionsFeature(prompts, resources);
    SkillsFeature skills = new SkillsFeature(holder, 50, service.redactor());
    return new Surfaces(
        List.of(
            new Surface(resources::capabilities, resources::register),
            new Surface(prompts::capabilities, prompts::register),
            new Surface(completions::capabilities, completions::register),
            new Surface(skills::capabilities, skills::register),
            new TasksFeature(service)),
        resources);
  }

  /**
   * A surface from a package that cannot implement {@link McpFeature} itself: it would then depend
   * on this package, which composes it.
   */
  private record Surface(
      Consumer<ObjectNode> capabilitiesPart, Consumer<McpServer.Builder> registration)
      implements McpFeature {
    @Override
    public void capabilities(ObjectNode capabilities) {
      capabilitiesPart.accept(capabilities);
    }

    @Override
    public void register(McpServer.Builder builder) {
      registration.accept(builder);
    }
  }

  public McpServer mcp() {
    return mcp;
  }

  public SkillportService service() {
    return service;
  }

  /** What this server tells about itself (to the bundled diagnostics tools, among others). */
  public ServerIntrospection introspection() {
    return introspection;
  }

  /**
   * Notes a transport now serving this server (for example {@code stdio} or the HTTP endpoint), as
   * the server status reports it.
   */
  public void transportStarted(String description) {
    introspection.transportStarted(description);
  }

  /** The workflow tools. */
  public WorkflowTools workflows() {
    return workflows;
  }

  /** This server's metrics, as {@code GET /metrics} shows them. */
  public ServerMetrics metrics() {
    return metrics;
  }

  /**
   * The page for people and {@code /metrics}, for the HTTP transport: made on first use and
   * following this server's jobs and workflow runs from then on.
   */
  public synchronized WebRoutes webRoutes() {
    if (webRoutes == null) {
      webRoutes = new WebRoutes(sources, metrics);
      service.addJobObserver(webRoutes::onJob);
      workflows.addRunObserver(webRoutes::onRun);
    }
    return webRoutes;
  }

  /** The REST skill API ({@code /v1/*}), for the HTTP transport. */
  public RestRoutes restRoutes() {
    return restRoutes;
  }

  /**
   * Every path of the HTTP transport beside {@code /mcp} and the probes: the REST skill API under
   * {@code /v1/}, then the page and {@code /metrics}.
   */
  public HttpRoutes httpRoutes() {
    RestRoutes rest = restRoutes;
    WebRoutes web = webRoutes();
    return (request, response, callback, credentials) ->
        rest.handle(request, response, callback, credentials)
            || web.handle(request, response, callback, credentials);
  }

  /** The page's masking through the server's redactor. */
  private record RedactorMasking(Redactor redactor) implements Masking {
    @Override
    public String text(String text) {
      return redactor.text(text);
    }

    @Override
    public String values(String text) {
      return redactor.literals(text);
    }

    @Override
    public boolean secretName(String name) {
      return redactor.isSecretName(name);
    }
  }

  /** The loaded plugins and the diagnostics of those that were left out. */
  public PluginHost plugins() {
    return plugins;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (webRoutes != null) {
        webRoutes.close();
      }
    }
    reloader.close();
    mcp.close();
    workflows.close();
    // Before the plugins: a bridged server is a child of this process, like a script.
    BridgeRuntime bridges = service.bridges();
    if (bridges != null) {
      bridges.close();
    }
    plugins.close();
    if (ownedExecution != null) {
      ownedExecution.close();
    }
  }
}
