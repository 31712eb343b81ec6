package dev.skillport.runtime;

import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Java tool handlers by id: from {@link ToolHandlerProvider} services and explicit registration.
 */
public final class HandlerRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(HandlerRegistry.class);
  private final Map<String, ToolHandler> handlers = new ConcurrentHashMap<>();

  /** A registry holding the handlers of every provider on {@code loader}'s class path. */
  public static HandlerRegistry fromServiceLoader(ClassLoader loader) {
    HandlerRegistry registry = new HandlerRegistry();
    for (ToolHandlerProvider provider : ServiceLoader.load(ToolHandlerProvider.class, loader)) {
      provider.handlers().forEach(registry::register);
    }
    return registry;
  }

  /** Registers a handler; a second registration of the same id is refused with a warning. */
  public void register(String id, ToolHandler handler) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(handler, "handler");
    if (handlers.putIfAbsent(id, handler) != null) {
      LOG.warn("tool handler id '{}' is registered twice; keeping the first", id);
    }
  }

  public Optional<ToolHandler> find(String id) {
    return Optional.ofNullable(handlers.get(id));
  }
}
