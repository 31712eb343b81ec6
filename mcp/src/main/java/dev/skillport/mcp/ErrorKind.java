package dev.skillport.mcp;

/**
 * Kinds of protocol failure. Only {@link ErrorMapper} knows the JSON-RPC codes they map to, so that
 * the rest of the code speaks in kinds, not numbers.
 */
public enum ErrorKind {
  /** The message is not valid JSON. */
  PARSE_ERROR,
  /**
   * The JSON is not a valid JSON-RPC request, or the request is not allowed in the session's state.
   */
  INVALID_REQUEST,
  /** No handler is registered for the method. */
  METHOD_NOT_FOUND,
  /** The parameters are missing, of the wrong shape, or name something that does not exist. */
  INVALID_PARAMS,
  /** A failure inside the server that the client cannot correct. */
  INTERNAL_ERROR,
  /** A resource URI that names nothing the server has. */
  RESOURCE_NOT_FOUND,
  /** HTTP headers that mirror the body (method, name, protocol version, parameters) disagree. */
  HEADER_MISMATCH,
  /** The request needs a client capability its {@code _meta} did not declare. */
  MISSING_CLIENT_CAPABILITY,
  /** The request names a protocol revision the server does not speak. */
  UNSUPPORTED_PROTOCOL_VERSION
}
