package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * What a {@link PostExchange} needs from what it belongs to: a legacy session (event ids unique in
 * the session, a replay buffer, a GET stream to fall back on) or the modern era's stateless host
 * (no event ids, no replay, nowhere to fall back).
 */
interface ExchangeHost {
  /** A message as compact UTF-8 JSON, ready to be written as a plain JSON body. */
  byte[] bytes(JsonNode message);

  /**
   * Writes a message as compact UTF-8 JSON into {@code out}; on a failure {@code out} may hold part
   * of it, and {@link #bytes} gives the body to send instead.
   */
  void write(JsonNode message, OutputStream out) throws IOException;

  /** Compact JSON text of a message, for an event stream. */
  default String serialize(JsonNode message) {
    return new String(bytes(message), StandardCharsets.UTF_8);
  }

  /** A new key for a stream, under which its events are recorded for replay. */
  String newStreamKey(String kind);

  /** Sends {@code json} as one event on {@code stream}; false when the stream cannot take it. */
  boolean deliver(SseStream stream, String streamKey, String json);

  /** Keeps an event of a closed but resumable stream for the client's reconnect. */
  void store(String streamKey, String json);

  /** Sends the priming event that makes a stream resumable. */
  void prime(SseStream stream, String streamKey);

  /** Whether streams are primed (and so resumable). */
  boolean primesStreams();

  /** Re-sends the held events of {@code streamKey} after {@code lastEventId} on {@code stream}. */
  void replay(SseStream stream, String streamKey, String lastEventId);

  /** Where a message goes that its request's stream cannot carry. */
  void fallback(JsonNode message);

  /** The exchange is finished. */
  void removeExchange(PostExchange exchange);
}
