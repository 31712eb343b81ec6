package dev.skillport.server.serve;

import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.mcp.McpServer;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.server.app.SkillportService;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * What a server is started with.
 *
 * @param roots skill roots, highest priority first
 * @param preload skills every new session starts with
 * @param handlers Java tool handlers by id (a copy: the configuration does not change)
 * @param scriptTimeout a script's timeout when its tool declares none
 * @param watch whether changes under the roots reload the catalog
 * @param resourceProviders Java code serving dynamic resources to every session
 * @param pageSize entries per page of {@code tools/list}, {@code prompts/list} and {@code
 *     resources/list} (and resource templates)
 * @param clientRequestTimeout how long a request to a client (roots, sampling, elicitation) waits
 *     for its answer
 */
public record ServeConfig(
    List<SkillRoot> roots,
    LoaderOptions loaderOptions,
    List<String> preload,
    Map<String, ToolHandler> handlers,
    Duration scriptTimeout,
    boolean watch,
    List<ResourceProvider> resourceProviders,
    int pageSize,
    Duration clientRequestTimeout) {
  /** Entries per list page unless configured: {@link SkillportService#DEFAULT_PAGE_SIZE}. */
  public static final int DEFAULT_PAGE_SIZE = SkillportService.DEFAULT_PAGE_SIZE;

  public ServeConfig {
    roots = List.copyOf(roots);
    Objects.requireNonNull(loaderOptions, "loaderOptions");
    preload = List.copyOf(preload);
    handlers = Map.copyOf(handlers);
    Objects.requireNonNull(scriptTimeout, "scriptTimeout");
    resourceProviders = List.copyOf(resourceProviders);
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be at least 1, not " + pageSize);
    }
    Objects.requireNonNull(clientRequestTimeout, "clientRequestTimeout");
    if (clientRequestTimeout.isNegative() || clientRequestTimeout.isZero()) {
      throw new IllegalArgumentException("clientRequestTimeout must be positive");
    }
  }

  /** A configuration with the default client request timeout. */
  public ServeConfig(
      List<SkillRoot> roots,
      LoaderOptions loaderOptions,
      List<String> preload,
      Map<String, ToolHandler> handlers,
      Duration scriptTimeout,
      boolean watch,
      List<ResourceProvider> resourceProviders,
      int pageSize) {
    this(
        roots,
        loaderOptions,
        preload,
        handlers,
        scriptTimeout,
        watch,
        resourceProviders,
        pageSize,
        McpServer.DEFAULT_CLIENT_REQUEST_TIMEOUT);
  }

  /** A configuration with the default page size. */
  public ServeConfig(
      List<SkillRoot> roots,
      LoaderOptions loaderOptions,
      List<String> preload,
      Map<String, ToolHandler> handlers,
      Duration scriptTimeout,
      boolean watch,
      List<ResourceProvider> resourceProviders) {
    this(
        roots,
        loaderOptions,
        preload,
        handlers,
        scriptTimeout,
        watch,
        resourceProviders,
        DEFAULT_PAGE_SIZE);
  }

  /** A configuration without resource providers. */
  public ServeConfig(
      List<SkillRoot> roots,
      LoaderOptions loaderOptions,
      List<String> preload,
      Map<String, ToolHandler> handlers,
      Duration scriptTimeout,
      boolean watch) {
    this(roots, loaderOptions, preload, handlers, scriptTimeout, watch, List.of());
  }

  /**
   * Defaults: lenient loading, no preload, service-loaded handlers and resource providers, 60 s
   * scripts, watching.
   */
  public static ServeConfig of(List<SkillRoot> roots) {
    ClassLoader loader = ServeConfig.class.getClassLoader();
    return new ServeConfig(
        roots,
        LoaderOptions.DEFAULTS,
        List.of(),
        HandlerRegistry.provided(loader),
        Duration.ofSeconds(60),
        true,
        ServiceLoader.load(ResourceProvider.class, loader).stream()
            .map(ServiceLoader.Provider::get)
            .toList(),
        DEFAULT_PAGE_SIZE,
        McpServer.DEFAULT_CLIENT_REQUEST_TIMEOUT);
  }

  public ServeConfig withPreload(List<String> names) {
    return new ServeConfig(
        roots,
        loaderOptions,
        names,
        handlers,
        scriptTimeout,
        watch,
        resourceProviders,
        pageSize,
        clientRequestTimeout);
  }

  public ServeConfig withLoaderOptions(LoaderOptions options) {
    return new ServeConfig(
        roots,
        options,
        preload,
        handlers,
        scriptTimeout,
        watch,
        resourceProviders,
        pageSize,
        clientRequestTimeout);
  }

  public ServeConfig withWatch(boolean value) {
    return new ServeConfig(
        roots,
        loaderOptions,
        preload,
        handlers,
        scriptTimeout,
        value,
        resourceProviders,
        pageSize,
        clientRequestTimeout);
  }

  public ServeConfig withResourceProviders(List<ResourceProvider> providers) {
    return new ServeConfig(
        roots,
        loaderOptions,
        preload,
        handlers,
        scriptTimeout,
        watch,
        providers,
        pageSize,
        clientRequestTimeout);
  }

  /**
   * This configuration with {@code more} handlers; an id it already has keeps its handler, and the
   * second registration is logged.
   */
  public ServeConfig withHandlers(Map<String, ToolHandler> more) {
    Map<String, ToolHandler> all = new LinkedHashMap<>(handlers);
    more.forEach((id, handler) -> HandlerRegistry.putFirst(all, id, handler));
    return new ServeConfig(
        roots,
        loaderOptions,
        preload,
        all,
        scriptTimeout,
        watch,
        resourceProviders,
        pageSize,
        clientRequestTimeout);
  }

  public ServeConfig withPageSize(int value) {
    return new ServeConfig(
        roots,
        loaderOptions,
        preload,
        handlers,
        scriptTimeout,
        watch,
        resourceProviders,
        value,
        clientRequestTimeout);
  }

  public ServeConfig withClientRequestTimeout(Duration value) {
    return new ServeConfig(
        roots,
        loaderOptions,
        preload,
        handlers,
        scriptTimeout,
        watch,
        resourceProviders,
        pageSize,
        value);
  }
}
