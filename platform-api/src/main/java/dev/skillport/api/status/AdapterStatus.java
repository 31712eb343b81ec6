package dev.skillport.api.status;

import java.util.Objects;
import java.util.Set;

/**
 * A started host adapter.
 *
 * @param id the adapter's id
 * @param products the host products it serves
 * @param ready whether the host answers now
 */
public record AdapterStatus(String id, Set<String> products, boolean ready) {
  public AdapterStatus {
    Objects.requireNonNull(id, "id");
    products = Set.copyOf(products);
  }
}
