package dev.skillport.mcp;

import dev.skillport.api.owner.Principal;
import java.util.Objects;
import java.util.Optional;

/**
 * What the transport knows about who sent a request and how: the principal it acts for (the local
 * one where the transport does not authenticate) and, over HTTP, the request's headers. Handlers
 * use the principal to bind state to its owner and the headers to check values the client mirrored
 * into them.
 */
public final class Caller {
  /** Reads one header of the request; null when absent. Names are case-insensitive. */
  @FunctionalInterface
  public interface Headers {
    String get(String name);
  }

  /** A caller with no principal and no headers (stdio, in-process). */
  public static final Caller LOCAL = new Caller(Principal.LOCAL, null);

  private final Principal identity;
  private final Headers headers;

  /**
   * @param identity who the request acts for
   * @param headers the request's headers, or null when the transport has none
   */
  public Caller(Principal identity, Headers headers) {
    this.identity = Objects.requireNonNull(identity, "identity");
    this.headers = headers;
  }

  /** Who the request acts for: whatever it makes is recorded as this principal's. */
  public Principal identity() {
    return identity;
  }

  /** The name of the authenticated caller, if the transport authenticates. */
  public Optional<String> principal() {
    return Optional.ofNullable(identity.name());
  }

  /** Whether the request came with HTTP headers. */
  public boolean hasHeaders() {
    return headers != null;
  }

  /** A header of the request, if present. */
  public Optional<String> header(String name) {
    Objects.requireNonNull(name, "name");
    return headers == null ? Optional.empty() : Optional.ofNullable(headers.get(name));
  }

  /** The same principal without the request's headers: what a session keeps of its opener. */
  public Caller withoutHeaders() {
    return headers == null ? this : new Caller(identity, null);
  }
}
