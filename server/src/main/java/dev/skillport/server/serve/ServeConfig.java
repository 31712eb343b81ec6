package dev.skillport.server.serve;

import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillRoot;
import dev.skillport.server.app.HandlerRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a server is started with.
 *
 * @param roots skill roots, highest priority first
 * @param preload skills every new session starts with
 * @param handlers Java tool handlers by id
 * @param scriptTimeout a script's timeout when its tool declares none
 * @param watch whether changes under the roots reload the catalog
 */
public record ServeConfig(
    List<SkillRoot> roots,
    LoaderOptions loaderOptions,
    List<String> preload,
    HandlerRegistry handlers,
    Duration scriptTimeout,
    boolean watch) {
  public ServeConfig {
    roots = List.copyOf(roots);
    Objects.requireNonNull(loaderOptions, "loaderOptions");
    preload = List.copyOf(preload);
    Objects.requireNonNull(handlers, "handlers");
    Objects.requireNonNull(scriptTimeout, "scriptTimeout");
  }

  /** Defaults: lenient loading, no preload, service-loaded handlers, 60 s scripts, watching. */
  public static ServeConfig of(List<SkillRoot> roots) {
    return new ServeConfig(
        roots,
        LoaderOptions.DEFAULTS,
        List.of(),
        HandlerRegistry.fromServiceLoader(ServeConfig.class.getClassLoader()),
        Duration.ofSeconds(60),
        true);
  }

  public ServeConfig withPreload(List<String> names) {
    return new ServeConfig(roots, loaderOptions, names, handlers, scriptTimeout, watch);
  }

  public ServeConfig withLoaderOptions(LoaderOptions options) {
    return new ServeConfig(roots, options, preload, handlers, scriptTimeout, watch);
  }

  public ServeConfig withWatch(boolean value) {
    return new ServeConfig(roots, loaderOptions, preload, handlers, scriptTimeout, value);
  }
}
