package dev.skillport.runtime;

import dev.skillport.registry.Catalog;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ToolBindings} of the newest catalog generation a caller has seen: bound on the first
 * use of a generation, which logs each handler id that no one registered, then shared by every call
 * on it.
 */
public final class CurrentBindings {
  private static final Logger LOG = LoggerFactory.getLogger(CurrentBindings.class);

  private final HandlerRegistry handlers;
  // Replaced when a caller sees a newer generation; null before the first use.
  private volatile ToolBindings current;

  public CurrentBindings(HandlerRegistry handlers) {
    this.handlers = Objects.requireNonNull(handlers, "handlers");
  }

  /** The bindings of {@code snapshot}'s generation. */
  public ToolBindings of(Catalog snapshot) {
    ToolBindings bound = current;
    if (bound == null || bound.generation() != snapshot.generation()) {
      bound = ToolBindings.bind(snapshot, handlers);
      current = bound;
      bound.diagnostics().forEach(d -> LOG.warn("{}", d.format()));
    }
    return bound;
  }
}
