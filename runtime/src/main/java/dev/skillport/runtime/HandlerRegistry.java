package dev.skillport.runtime;

import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import java.util.Collections;
import java.util.LinkedHashMap;
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

  /**
   * The handlers of every provider on {@code loader}'s class path, by id, the first provider's
   * where two give the same id.
   */
  public static Map<String, ToolHandler> provided(ClassLoader loader) {
    Map<String, ToolHandler> found = new LinkedHashMap<>();
    for (ToolHandlerProvider provider : ServiceLoader.load(ToolHandlerProvider.class, loader)) {
      provider.handlers().forEach((id, handler) -> putFirst(found, id, handler));
    }
    return Collections.unmodifiableMap(found);
  }

  /**
   * Puts {@code handler} under {@code id} unless {@code into} has one already; a second
   * registration of the same id is refused with a warning.
   */
  public static void putFirst(Map<String, ToolHandler> into, String id, ToolHandler handler) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(handler, "handler");
    if (into.putIfAbsent(id, handler) != null) {
      LOG.warn("tool handler id '{}' is registered twice; keeping the first", id);
    }
  }

  /** Registers a handler; a second registration of the same id is refused with a warning. */
  public void register(String id, ToolHandler handler) {
    putFirst(handlers, id, handler);
  }

  public Optional<ToolHandler> find(String id) {
    return Optional.ofNullable(handlers.get(id));
  }
}
