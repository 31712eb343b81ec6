package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/**
 * A protocol failure that reaches the client as a JSON-RPC error; tool failures are results with
 * {@code isError: true} instead and never use this type.
 */
public final class McpException extends Exception {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;
  private final transient JsonNode data;

  /** Creates a failure of the given kind with a message the client may show. */
  public McpException(ErrorKind kind, String message) {
    this(kind, message, null, null);
  }

  /** Creates a failure with structured {@code data} for the client (for example a hint). */
  public McpException(ErrorKind kind, String message, JsonNode data) {
    this(kind, message, data, null);
  }

  /** Creates a failure caused by another exception; the cause is logged, never sent. */
  public McpException(ErrorKind kind, String message, JsonNode data, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.data = data;
  }

  /** The kind of failure. */
  public ErrorKind kind() {
    return kind;
  }

  /** Structured detail for the client, if any. */
  public Optional<JsonNode> data() {
    return Optional.ofNullable(data);
  }
}
