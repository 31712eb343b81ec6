package dev.skillport.server.app;

import java.util.Locale;
import java.util.Optional;

/**
 * What a stateless (2026-07-28) client's {@code tools/list} holds. Sessions load skills one by one
 * and see their lists change; a stateless list may not change with anything a client does, so the
 * server decides once, from its configuration and catalog, what to list. Every tool of every skill
 * the server may run stays callable under each policy.
 */
public enum ListingPolicy {
  /** Every tool of every available skill (its default-active groups). */
  ALL,
  /**
   * The core tools, the preloaded skills' tools and {@code call_tool}, which calls any other tool
   * of the catalog by its qualified name: a small list whatever the catalog's size.
   */
  CATALOG,
  /** {@link #ALL} while the catalog has at most a threshold of tools, {@link #CATALOG} above. */
  AUTO;

  /** The policy named {@code text} ({@code all}, {@code catalog}, {@code auto}). */
  public static Optional<ListingPolicy> of(String text) {
    try {
      return Optional.of(valueOf(text.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
