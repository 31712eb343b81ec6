package dev.skillport.server.serve;

import dev.skillport.api.diagnostic.Diagnostic;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.SkillLoader;
import dev.skillport.loader.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.server.app.CatalogReloader;
import dev.skillport.server.app.ScriptToolRunner;
import dev.skillport.server.app.SkillportService;
import dev.skillport.server.mcp.McpServer;
import dev.skillport.server.mcp.ServerInfo;
import dev.skillport.server.plugins.PluginHost;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Skillport: the catalog loaded (and watched), the application service, and the MCP
 * server that transports attach to.
 */
public final class SkillportServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SkillportServer.class);
  private static final int MAX_STDOUT = 1 << 20;
  private static final int MAX_STDERR = 64 << 10;

  private final CatalogReloader reloader;
  private final SkillportService service;
  private final McpServer mcp;
  private final PluginHost plugins;

  private SkillportServer(
      CatalogReloader reloader, SkillportService service, McpServer mcp, PluginHost plugins) {
    this.reloader = reloader;
    this.service = service;
    this.mcp = mcp;
    this.plugins = plugins;
  }

  /** Loads the skills, starts watching them if asked, and builds the MCP server. */
  public static SkillportServer start(ServeConfig config, String version) throws IOException {
    return start(config, version, List.of());
  }

  /**
   * Like {@link #start(ServeConfig, String)}, with the host-adapter plugins found in {@code
   * pluginFolders}: their handlers join the registry and their shipped skills are served at scope
   * {@code system}. A plugin that fails is reported in {@link #plugins()} and left out.
   */
  public static SkillportServer start(ServeConfig config, String version, List<Path> pluginFolders)
      throws IOException {
    PluginHost plugins = PluginHost.load(pluginFolders, version);
    plugins.handlers().forEach(config.handlers()::register);
    List<SkillRoot> roots = new ArrayList<>(config.roots());
    roots.addAll(plugins.skillRoots());
    CatalogHolder holder = new CatalogHolder(Catalog.empty());
    CatalogReloader reloader =
        new CatalogReloader(
            new SkillLoader(config.loaderOptions()), roots, holder, Duration.ofMillis(300));
    LoadResult first = reloader.reload();
    for (Diagnostic d : first.diagnostics()) {
      if (d.isError()) {
        LOG.warn("{}", d.format());
      } else {
        LOG.debug("{}", d.format());
      }
    }
    LOG.info("{} skills discovered under {} roots", first.skills().size(), roots.size());
    if (config.watch()) {
      reloader.start();
    }
    SkillportService service =
        new SkillportService(
            holder,
            config.handlers(),
            new ScriptToolRunner(config.scriptTimeout(), MAX_STDOUT, MAX_STDERR),
            config.preload(),
            100,
            plugins.adapters());
    McpServer mcp =
        SkillportMcp.create(
            service,
            new ServerInfo(
                "skillport",
                version,
                "Skills are loaded on demand: call search_skills to find one, load_skill to get its"
                    + " tools."),
            Math.max(4, Runtime.getRuntime().availableProcessors() * 4),
            List.of());
    return new SkillportServer(reloader, service, mcp, plugins);
  }

  public McpServer mcp() {
    return mcp;
  }

  public SkillportService service() {
    return service;
  }

  /** The loaded plugins and the diagnostics of those that were left out. */
  public PluginHost plugins() {
    return plugins;
  }

  @Override
  public void close() {
    reloader.close();
    mcp.close();
    plugins.close();
  }
}
