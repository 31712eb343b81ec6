package dev.skillport.registry;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/** Holds the current {@link Catalog} and tells listeners when a reload swaps it. */
public final class CatalogHolder {
  private final AtomicReference<Catalog> current;
  private final List<BiConsumer<Catalog, Catalog>> listeners = new CopyOnWriteArrayList<>();

  public CatalogHolder(Catalog initial) {
    this.current = new AtomicReference<>(Objects.requireNonNull(initial, "initial"));
  }

  public Catalog current() {
    return current.get();
  }

  /** Swaps in {@code next} and calls each listener with (previous, next). */
  public void swap(Catalog next) {
    Catalog previous = current.getAndSet(Objects.requireNonNull(next, "next"));
    for (BiConsumer<Catalog, Catalog> l : listeners) {
      l.accept(previous, next);
    }
  }

  /** Registers a listener called after every swap, on the swapping thread. */
  public void onSwap(BiConsumer<Catalog, Catalog> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }
}
