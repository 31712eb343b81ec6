package dev.skillport.plugins;

import dev.skillport.api.host.HostAdapter;
import dev.skillport.api.host.ToolHandlerExtension;
import dev.skillport.api.resource.ResourceProvider;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loaded plugins of one server: their started host adapters, their tool handlers, the skill
 * roots they ship, and a diagnostic for every plugin that could not take part. A broken plugin
 * never stops the server; it is left out and reported.
 */
public final class PluginHost implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PluginHost.class);

  /** Jar entries a plugin must not carry: the server provides these packages. */
  private static final List<String> SHARED_ENTRY_PREFIXES =
      HostFirstClassLoader.SHARED_PACKAGES.stream().map(p -> p.replace('.', '/')).toList();

  private final Pf4jRuntime pf4j;
  private final List<String> pluginIds;
  private final HostAdapters adapters;
  private final Map<String, ToolHandler> handlers;
  private final List<ResourceProvider> resourceProviders;
  private final List<SkillRoot> skillRoots;
  private final List<Diagnostic> diagnostics;
  private final Path unpacked;

  private PluginHost(
      Pf4jRuntime pf4j,
      List<String> pluginIds,
      List<HostAdapter> adapters,
      Map<String, ToolHandler> handlers,
      List<ResourceProvider> resourceProviders,
      List<SkillRoot> skillRoots,
      List<Diagnostic> diagnostics,
      Path unpacked) {
    this.pf4j = pf4j;
    this.pluginIds = List.copyOf(pluginIds);
    this.adapters = new HostAdapters(adapters);
    this.handlers = Collections.unmodifiableMap(new LinkedHashMap<>(handlers));
    this.resourceProviders = List.copyOf(resourceProviders);
    this.skillRoots = List.copyOf(skillRoots);
    this.diagnostics = List.copyOf(diagnostics);
    this.unpacked = unpacked;
  }

  /** A host with no plugins. */
  public static PluginHost empty() {
    return new PluginHost(
        null, List.of(), List.of(), Map.of(), List.of(), List.of(), List.of(), null);
  }

  /**
   * Loads and starts every {@code *.jar} in {@code folders} (folders that do not exist are
   * skipped), in folder order and by file name within a folder.
   *
   * @param systemVersion the server version that a plugin's {@code Plugin-Requires} is checked
   *     against
   */
  public static PluginHost load(List<Path> folders, String systemVersion) throws IOException {
    return load(folders, systemVersion, AdapterSettings.none());
  }

  /**
   * Like {@link #load(List, String)}; every adapter gets its group of {@code settings} ({@link
   * HostAdapter#configure}) before it starts.
   */
  public static PluginHost load(List<Path> folders, String systemVersion, AdapterSettings settings)
      throws IOException {
    List<Path> jars = new ArrayList<>();
    List<Path> existing = new ArrayList<>();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        LOG.debug("plugin folder {} does not exist", folder);
        continue;
      }
      existing.add(folder);
      try (Stream<Path> files = Files.list(folder)) {
        files
            .filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f))
            .sorted(Comparator.comparing(f -> f.getFileName().toString()))
            .forEach(jars::add);
      }
    }
    if (jars.isEmpty()) {
      warnUnused(settings, List.of());
      return empty();
    }
    Pf4jRuntime pf4j = new Pf4jRuntime(existing, versionOf(systemVersion));
    Loading loading = new Loading(pf4j, settings);
    for (Path jar : jars) {
      loading.load(jar);
    }
    warnUnused(settings, loading.adapters);
    LOG.info(
        "{} plugins started, {} host adapters, {} tool handlers, {} plugin problems",
        loading.pluginIds.size(),
        loading.adapters.size(),
        loading.handlers.size(),
        loading.diagnostics.size());
    return new PluginHost(
        pf4j,
        loading.pluginIds,
        loading.adapters,
        loading.handlers,
        loading.resources,
        loading.roots,
        loading.diagnostics,
        loading.unpacked);
  }

  private static void warnUnused(AdapterSettings settings, List<HostAdapter> started) {
    for (String id : settings.adapterIds()) {
      if (started.stream().noneMatch(a -> a.id().equals(id))) {
        LOG.warn("settings for host adapter '{}' are unused: no such adapter started", id);
      }
    }
  }

  private static String versionOf(String systemVersion) {
    // PF4J compares with semver; a build suffix such as -SNAPSHOT is not part of the check.
    String v = systemVersion == null ? "0.0.0" : systemVersion.replaceFirst("-.*$", "");
    return v.matches("\\d+\\.\\d+\\.\\d+") ? v : "0.0.0";
  }

  public HostAdapters adapters() {
    return adapters;
  }

  /** Handler id → handler, from every plugin's {@link ToolHandlerExtension}s. */
  public Map<String, ToolHandler> handlers() {
    return handlers;
  }

  /** The resource providers of the started host adapters, in plugin load order. */
  public List<ResourceProvider> resourceProviders() {
    return resourceProviders;
  }

  /** Skill folders shipped inside plugins, unpacked, at scope {@code system}. */
  public List<SkillRoot> skillRoots() {
    return skillRoots;
  }

  /** One diagnostic per plugin (or adapter) that was left out, with its jar as the file. */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  /** Ids of the plugins that started. */
  public List<String> pluginIds() {
    return pluginIds;
  }

  private boolean closed;

  /**
   * Stops the adapters, then stops and unloads the plugins one by one, newest first (once: a second
   * close does nothing). (Stopping them all at once with PF4J's {@code stopPlugins()} fails while
   * any plugin is started.)
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    List<HostAdapter> started = new ArrayList<>(adapters.adapters());
    Collections.reverse(started);
    for (HostAdapter adapter : started) {
      stopQuietly(adapter);
    }
    List<String> ids = new ArrayList<>(pluginIds);
    Collections.reverse(ids);
    for (String id : ids) {
      try {
        pf4j.stopPlugin(id);
        pf4j.unloadPlugin(id);
      } catch (RuntimeException e) {
        LOG.warn("plugin {} did not stop cleanly: {}", id, e.toString());
      }
    }
    if (unpacked != null) {
      deleteTree(unpacked);
    }
  }

  private static void stopQuietly(HostAdapter adapter) {
    try {
      adapter.stop();
    } catch (RuntimeException | LinkageError e) {
      LOG.warn("host adapter {} did not stop cleanly: {}", adapter.id(), e.toString());
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("could not remove {}: {}", root, e.toString());
    }
  }

  /** The state of one {@link #load} pass. */
  private static final class Loading {
    final Pf4jRuntime pf4j;
    // Made when the first plugin ships skills (most ship none): naming a temporary folder seeds a
    // SecureRandom, milliseconds of a stdio server's start.
    Path unpacked;
    final AdapterSettings settings;
    final List<String> pluginIds = new ArrayList<>();
    final List<HostAdapter> adapters = new ArrayList<>();
    final Map<String, ToolHandler> handlers = new LinkedHashMap<>();
    final List<ResourceProvider> resources = new ArrayList<>();
    final List<SkillRoot> roots = new ArrayList<>();
    final List<Diagnostic> diagnostics = new ArrayList<>();

    Loading(Pf4jRuntime pf4j, AdapterSettings settings) {
      this.pf4j = pf4j;
      this.settings = settings;
    }

    /** The folder plugins' skills are unpacked into, made at the first call. */
    Path unpacked() throws IOException {
      if (unpacked == null) {
        unpacked = Files.createTempDirectory("skillport-plugins");
      }
      return unpacked;
    }

    void load(Path jar) {
      Optional<String> bundled = bundledSharedEntry(jar);
      if (bundled.isPresent()) {
        report(
            DiagnosticCode.PLUGIN_BUNDLES_API,
            jar,
            "plugin jar bundles " + bundled.get() + "; it was not loaded",
            "declare platform-api, Jackson, SLF4J and PF4J as provided dependencies");
        return;
      }
      String id;
      try {
        id = pf4j.loadPlugin(jar);
      } catch (RuntimeException e) {
        report(
            DiagnosticCode.PLUGIN_INVALID,
            jar,
            "plugin could not be loaded: " + e.getMessage(),
            "the manifest needs Plugin-Id, Plugin-Version and a Plugin-Class that exists");
        return;
      }
      if (id == null) {
        report(DiagnosticCode.PLUGIN_INVALID, jar, "plugin could not be loaded", null);
        return;
      }
      Optional<String> missing = missingClass(id);
      if (missing.isPresent()) {
        report(
            DiagnosticCode.PLUGIN_INVALID,
            jar,
            "plugin '" + id + "' names a class it does not contain: " + missing.get(),
            "check Plugin-Class and META-INF/extensions.idx");
        unload(id);
        return;
      }
      PluginState state;
      try {
        state = pf4j.startPlugin(id);
      } catch (RuntimeException | LinkageError e) {
        state = PluginState.FAILED;
        pf4j.getPlugin(id).setFailedException(e);
      }
      if (state != PluginState.STARTED) {
        Throwable cause = pf4j.getPlugin(id).getFailedException();
        report(
            DiagnosticCode.PLUGIN_START_FAILED,
            jar,
            "plugin '" + id + "' did not start" + (cause == null ? "" : ": " + describe(cause)),
            null);
        unload(id);
        return;
      }
      pluginIds.add(id);
      contribute(id, jar);
    }

    private void contribute(String id, Path jar) {
      List<HostAdapter> found;
      List<ToolHandlerExtension> providers;
      try {
        found = pf4j.getExtensions(HostAdapter.class, id);
        providers = pf4j.getExtensions(ToolHandlerExtension.class, id);
      } catch (RuntimeException | LinkageError e) {
        report(
            DiagnosticCode.PLUGIN_INVALID,
            jar,
            "extensions of plugin '" + id + "' could not be created: " + describe(e),
            null);
        return;
      }
      for (HostAdapter adapter : found) {
        try {
          adapter.configure(settings.of(adapter.id()));
          adapter.start();
        } catch (Exception | LinkageError e) {
          report(
              DiagnosticCode.PLUGIN_START_FAILED,
              jar,
              "host adapter '"
                  + adapter.id()
                  + "' of plugin '"
                  + id
                  + "' failed to start: "
                  + describe(e),
              null);
          stopQuietly(adapter);
          continue;
        }
        adapters.add(adapter);
        unpackRoots(id, jar, adapter);
        addResources(id, jar, adapter);
      }
      for (ToolHandlerExtension provider : providers) {
        try {
          provider.handlers().forEach(handlers::putIfAbsent);
        } catch (RuntimeException | LinkageError e) {
          report(
              DiagnosticCode.PLUGIN_START_FAILED,
              jar,
              "tool handlers of plugin '" + id + "' failed: " + describe(e),
              null);
        }
      }
    }

    private void addResources(String id, Path jar, HostAdapter adapter) {
      try {
        resources.addAll(adapter.resourceProviders());
      } catch (RuntimeException | LinkageError e) {
        report(
            DiagnosticCode.PLUGIN_START_FAILED,
            jar,
            "resources of host adapter '"
                + adapter.id()
                + "' of plugin '"
                + id
                + "' failed: "
                + describe(e),
            null);
      }
    }

    private void unpackRoots(String id, Path jar, HostAdapter adapter) {
      for (String root : adapter.skillRoots()) {
        String prefix = root.replace('\\', '/').replaceAll("^/+|/+$", "") + "/";
        try {
          Path base = unpacked();
          Path target = base.resolve(id).resolve(prefix).normalize();
          if (!target.startsWith(base) || prefix.equals("/")) {
            throw new IOException("skill root '" + root + "' is not a folder inside the plugin");
          }
          extract(jar, prefix, target);
          roots.add(new SkillRoot(target, Scope.SYSTEM, "plugin " + id));
        } catch (IOException e) {
          report(
              DiagnosticCode.PLUGIN_INVALID,
              jar,
              "skill root '"
                  + root
                  + "' of plugin '"
                  + id
                  + "' could not be unpacked: "
                  + e.getMessage(),
              null);
        }
      }
    }

    private static void extract(Path jar, String prefix, Path target) throws IOException {
      Files.createDirectories(target);
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        Enumeration<? extends ZipEntry> entries = zip.entries();
        while (entries.hasMoreElements()) {
          ZipEntry entry = entries.nextElement();
          if (!entry.getName().startsWith(prefix) || entry.isDirectory()) {
            continue;
          }
          Path out = target.resolve(entry.getName().substring(prefix.length())).normalize();
          if (!out.startsWith(target)) {
            throw new IOException("entry " + entry.getName() + " leaves the skill root");
          }
          Files.createDirectories(out.getParent());
          try (InputStream in = zip.getInputStream(entry)) {
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    }

    private Optional<String> missingClass(String id) {
      PluginWrapper plugin = pf4j.getPlugin(id);
      List<String> names = new ArrayList<>(pf4j.getExtensionClassNames(id));
      String pluginClass = plugin.getDescriptor().getPluginClass();
      if (pluginClass != null && !pluginClass.isBlank()) {
        names.add(0, pluginClass);
      }
      for (String name : names) {
        try {
          Class.forName(name, false, plugin.getPluginClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
          return Optional.of(name);
        }
      }
      return Optional.empty();
    }

    private void unload(String id) {
      try {
        pf4j.unloadPlugin(id);
      } catch (RuntimeException e) {
        LOG.debug("unloading plugin {} failed: {}", id, e.toString());
      }
    }

    private static Optional<String> bundledSharedEntry(Path jar) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        return zip.stream()
            .map(ZipEntry::getName)
            .filter(n -> n.endsWith(".class"))
            .filter(n -> SHARED_ENTRY_PREFIXES.stream().anyMatch(n::startsWith))
            .findFirst();
      } catch (IOException e) {
        // Not a readable jar: PF4J reports it below as an invalid plugin.
        return Optional.empty();
      }
    }

    private void report(DiagnosticCode code, Path jar, String message, String hint) {
      Diagnostic d = Diagnostic.of(code, message, jar, 0, 0);
      d = hint == null ? d : d.withHint(hint);
      LOG.warn("{}", d.format());
      diagnostics.add(d);
    }

    private static String describe(Throwable e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      return root.getClass().getSimpleName()
          + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
  }
}
