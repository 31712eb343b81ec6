package dev.skillport.plugins;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pf4j.ExtensionFinder;
import org.pf4j.IndexedExtensionFinder;
import org.pf4j.JarPluginLoader;
import org.pf4j.JarPluginManager;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginLoader;

/**
 * PF4J configured for Skillport: jar plugins, {@link HostFirstClassLoader} for each, and extensions
 * found only inside plugins (the server's own class path contributes none, even when a plugin's
 * classes happen to be on it as well).
 */
final class Pf4jRuntime extends JarPluginManager {

  Pf4jRuntime(List<Path> roots, String systemVersion) {
    super(roots.toArray(Path[]::new));
    setSystemVersion(systemVersion);
  }

  @Override
  protected PluginLoader createPluginLoader() {
    return new JarPluginLoader(this) {
      @Override
      protected PluginClassLoader createPluginClassLoader(
          Path pluginPath, PluginDescriptor descriptor) {
        return new HostFirstClassLoader(
            pluginManager, descriptor, Pf4jRuntime.class.getClassLoader());
      }
    };
  }

  @Override
  protected ExtensionFinder createExtensionFinder() {
    IndexedExtensionFinder finder =
        new IndexedExtensionFinder(this) {
          @Override
          public Map<String, Set<String>> readClasspathStorages() {
            return new LinkedHashMap<>();
          }
        };
    addPluginStateListener(finder);
    return finder;
  }
}
