package dev.skillport.server.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.server.mcp.McpServer;
import dev.skillport.server.mcp.McpSession;
import dev.skillport.server.mcp.OutboundChannel;
import dev.skillport.server.mcp.ProtocolVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of one MCP session: its GET streams (where session messages go), the POST exchanges
 * in flight, a small buffer for session messages sent while no GET stream is open, and the event-id
 * counter shared by all its streams so every event id is unique within the session.
 */
final class HttpSession implements OutboundChannel {
  private static final Logger LOG = LoggerFactory.getLogger(HttpSession.class);

  private final McpServer server;
  private final McpSession mcp;
  private final int maxBuffered;
  private final List<SseStream> getStreams = new ArrayList<>();
  private final ArrayDeque<JsonNode> buffered = new ArrayDeque<>();
  private final Set<PostExchange> exchanges = ConcurrentHashMap.newKeySet();
  private final AtomicLong eventIds = new AtomicLong();

  HttpSession(McpServer server, int maxBuffered) {
    this.server = server;
    this.maxBuffered = maxBuffered;
    this.mcp = server.openSession(this);
  }

  McpSession mcp() {
    return mcp;
  }

  String id() {
    return mcp.id();
  }

  String nextEventId() {
    return Long.toString(eventIds.incrementAndGet());
  }

  boolean primesStreams() {
    return mcp.protocolVersion().map(ProtocolVersion::primesStreams).orElse(false);
  }

  String serialize(JsonNode message) {
    return new String(server.write(message), StandardCharsets.UTF_8);
  }

  /**
   * Delivers a session message on the newest open GET stream; with none open, keeps the newest
   * {@code maxBuffered} messages for the next stream and drops older ones.
   */
  @Override
  public void send(JsonNode message) {
    String json = serialize(message);
    synchronized (this) {
      for (int i = getStreams.size() - 1; i >= 0; i--) {
        if (getStreams.get(i).event(nextEventId(), json)) {
          return;
        }
      }
      if (maxBuffered == 0) {
        LOG.debug("Session {}: no GET stream open, dropping {}", id(), message.path("method"));
        return;
      }
      if (buffered.size() >= maxBuffered) {
        JsonNode dropped = buffered.removeFirst();
        LOG.debug("Session {}: buffer full, dropping {}", id(), dropped.path("method"));
      }
      buffered.addLast(message);
    }
  }

  /**
   * Registers a GET stream if under the cap: {@code opener} writes its headers and first event,
   * then buffered messages follow, all before any other session message can reach the stream.
   */
  synchronized boolean openGetStream(SseStream stream, int max, Runnable opener) {
    getStreams.removeIf(s -> !s.isOpen());
    if (getStreams.size() >= max) {
      return false;
    }
    opener.run();
    getStreams.add(stream);
    while (!buffered.isEmpty()) {
      JsonNode message = buffered.removeFirst();
      if (!stream.event(nextEventId(), serialize(message))) {
        break;
      }
    }
    return true;
  }

  synchronized void removeGetStream(SseStream stream) {
    getStreams.remove(stream);
  }

  synchronized boolean hasOpenGetStream() {
    return getStreams.stream().anyMatch(SseStream::isOpen);
  }

  void addExchange(PostExchange exchange) {
    exchanges.add(exchange);
  }

  void removeExchange(PostExchange exchange) {
    exchanges.remove(exchange);
  }

  /** Writes keep-alive comments on every open stream and turns long silent calls into streams. */
  void keepAlive() {
    List<SseStream> streams;
    synchronized (this) {
      streams = List.copyOf(getStreams);
    }
    streams.forEach(stream -> stream.comment("keepalive"));
    exchanges.forEach(PostExchange::keepAlive);
  }

  /** Ends the MCP session and closes every stream. */
  void close() {
    server.closeSession(mcp);
    List<SseStream> streams;
    synchronized (this) {
      streams = List.copyOf(getStreams);
      getStreams.clear();
      buffered.clear();
    }
    streams.forEach(SseStream::close);
    exchanges.forEach(PostExchange::abandon);
  }
}
