package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Lets the application end the event stream that answers a request before the result is ready, so
 * the client reconnects and resumes it with {@code Last-Event-ID} (polling, 2025-11-25). An HTTP
 * session offers itself as the MCP session's attribute {@link #ATTRIBUTE}.
 */
public interface RequestStreams {
  /** The session attribute under which the transport offers this. */
  String ATTRIBUTE = RequestStreams.class.getName();

  /**
   * Ends the event stream of request {@code requestId} (opening one first if the call has not
   * streamed yet) when the client can resume it; later messages and the result wait for the
   * client's reconnect.
   *
   * @return whether the stream was ended; false when the request is unknown, already answered, or
   *     its client cannot resume (it does not accept event streams or speaks an older revision)
   */
  boolean closeStream(JsonNode requestId);
}
