package dev.skillport.model.status;

import java.util.Objects;
import java.util.Set;

/**
 * A started host adapter.
 *
 * @param id the adapter's id
 * @param products the host products it serves
 * @param ready whether the host answers now
 * @param detail the adapter's own one-line account of its state, empty when it gives none
 */
public record AdapterStatus(String id, Set<String> products, boolean ready, String detail) {
  public AdapterStatus {
    Objects.requireNonNull(id, "id");
    products = Set.copyOf(products);
    detail = detail == null ? "" : detail;
  }

  /** A status without detail. */
  public AdapterStatus(String id, Set<String> products, boolean ready) {
    this(id, products, ready, "");
  }
}
