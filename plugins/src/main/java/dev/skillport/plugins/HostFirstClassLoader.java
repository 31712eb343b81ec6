package dev.skillport.plugins;

import java.util.List;
import org.pf4j.ClassLoadingStrategy;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginManager;

/**
 * A plugin class loader that looks in the plugin first, except for the packages the server and its
 * plugins share: those always come from the server, so an adapter's {@code HostAdapter} is the very
 * interface the server calls and a {@code JsonNode} crosses the boundary as one class.
 */
final class HostFirstClassLoader extends PluginClassLoader {
  /** Class-name prefixes that always load from the server's class loader. */
  static final List<String> SHARED_PACKAGES =
      List.of("dev.skillport.api.", "com.fasterxml.jackson.", "org.slf4j.", "org.pf4j.");

  HostFirstClassLoader(PluginManager manager, PluginDescriptor descriptor, ClassLoader parent) {
    super(manager, descriptor, parent, ClassLoadingStrategy.PDA);
  }

  static boolean isShared(String className) {
    return SHARED_PACKAGES.stream().anyMatch(className::startsWith);
  }

  @Override
  protected boolean shouldDelegateToParent(String className) {
    return isShared(className) || super.shouldDelegateToParent(className);
  }
}
