package dev.skillport.mcp;

import java.util.Objects;
import java.util.Optional;

/**
 * What the transport knows about who sent a request and how: the authenticated principal (when the
 * transport authenticates) and, over HTTP, the request's headers. Handlers use the principal to
 * bind state to its owner and the headers to check values the client mirrored into them.
 */
public final class Caller {
  /** Reads one header of the request; null when absent. Names are case-insensitive. */
  @FunctionalInterface
  public interface Headers {
    String get(String name);
  }

  /** A caller with no principal and no headers (stdio, in-process). */
  public static final Caller LOCAL = new Caller(null, null);

  private final String principal;
  private final Headers headers;

  /**
   * @param principal a stable, non-secret name of the authenticated caller, or null
   * @param headers the request's headers, or null when the transport has none
   */
  public Caller(String principal, Headers headers) {
    this.principal = principal;
    this.headers = headers;
  }

  /** The authenticated caller, if the transport authenticates. */
  public Optional<String> principal() {
    return Optional.ofNullable(principal);
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

  /** The same caller with another principal. */
  public Caller withPrincipal(String other) {
    return new Caller(other, headers);
  }
}
