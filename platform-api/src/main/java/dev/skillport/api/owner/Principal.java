package dev.skillport.api.owner;

import dev.skillport.api.stability.API;
import java.util.Objects;

/**
 * The caller a request acts for: the stable, non-secret name derived from the token it presented
 * ({@code token:<hex>}), or no name at all where the server takes no tokens and so has one caller,
 * the local one. Every piece of state a request makes records this name as its owner; {@link
 * #owns(String)} is the one rule that decides who may see or change it afterwards.
 *
 * <p>An operator (a caller that presented an admin token) sees every caller's entries in the
 * diagnostics views ({@link #sees(String)}); it owns only its own work like anyone else.
 *
 * @param name the principal's name, or {@code null} for the single local caller of a server that
 *     takes no tokens
 * @param operator whether the caller may see every caller's calls in diagnostics
 */
@API(status = API.Status.STABLE)
public record Principal(String name, boolean operator) {
  /** The one caller of a server that takes no tokens (stdio, or HTTP without tokens). */
  public static final Principal LOCAL = new Principal(null, false);

  public Principal {
    if (name != null && name.isBlank()) {
      throw new IllegalArgumentException("a principal's name must not be blank");
    }
  }

  /** A caller that is not an operator; {@code name} may be null (the local caller). */
  public static Principal of(String name) {
    return name == null ? LOCAL : new Principal(name, false);
  }

  /**
   * Whether this caller may see or change state whose recorded owner is {@code owner}: only its
   * own. Where callers authenticate, state without an owner belongs to nobody who asks, so no token
   * reaches it; where they do not, every owner is the local one. Callers that fail this rule get
   * the answer an unknown id gets.
   */
  public boolean owns(String owner) {
    return Objects.equals(name, owner);
  }

  /**
   * Whether this caller may see an audit entry or metric of {@code owner}: its own, or any if an
   * operator.
   */
  public boolean sees(String owner) {
    return operator || owns(owner);
  }
}
