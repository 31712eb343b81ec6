package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.api.owner.Principal;
import dev.skillport.mcp.Caller;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.OutboundChannel;
import dev.skillport.mcp.ProtocolVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of one MCP session: its GET streams (where session messages go), the POST exchanges
 * in flight, a small buffer for session messages sent while no GET stream is open, and the event-id
 * counter shared by all its streams so every event id is unique within the session.
 */
final class HttpSession implements OutboundChannel, RequestStreams, ExchangeHost {
  /** How long a client should wait before reconnecting to a closed stream. */
  static final long RETRY_MILLIS = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(HttpSession.class);

  private final McpServer server;
  private final McpSession mcp;
  private final int maxBuffered;
  private final List<GetStream> getStreams = new ArrayList<>();
  private final ArrayDeque<JsonNode> buffered = new ArrayDeque<>();
  private final Set<PostExchange> exchanges = ConcurrentHashMap.newKeySet();
  private final AtomicLong eventIds = new AtomicLong();
  private final AtomicLong streamIds = new AtomicLong();
  private final ConcurrentHashMap<String, PostExchange> byRequest = new ConcurrentHashMap<>();
  private final ReplayBuffer replay;

  HttpSession(McpServer server, int maxBuffered, int maxReplayed, Caller owner) {
    this.server = server;
    this.maxBuffered = maxBuffered;
    this.replay = new ReplayBuffer(maxReplayed);
    this.mcp = server.openSession(this, owner);
    mcp.attributes().put(RequestStreams.ATTRIBUTE, this);
  }

  McpSession mcp() {
    return mcp;
  }

  String id() {
    return mcp.id();
  }

  /** Whether {@code caller} may use this session: only the caller that opened it may. */
  boolean ownedBy(Principal caller) {
    return caller.owns(mcp.owner().identity().name());
  }

  /** A new stream key; event ids are recorded against it for replay. */
  @Override
  public String newStreamKey(String kind) {
    return kind + streamIds.incrementAndGet();
  }

  /**
   * Sends {@code json} as a new event on {@code stream}, recording it for replay if it went out.
   */
  @Override
  public boolean deliver(SseStream stream, String streamKey, String json) {
    long id = eventIds.incrementAndGet();
    if (!stream.event(Long.toString(id), json)) {
      return false;
    }
    replay.add(id, streamKey, json);
    return true;
  }

  /** Keeps {@code json} for a stream that is closed but resumable, to be replayed on reconnect. */
  @Override
  public void store(String streamKey, String json) {
    replay.add(eventIds.incrementAndGet(), streamKey, json);
  }

  /** Sends the priming event (an id, a retry delay, empty data) that makes a stream resumable. */
  @Override
  public void prime(SseStream stream, String streamKey) {
    long id = eventIds.incrementAndGet();
    stream.prime(Long.toString(id), RETRY_MILLIS);
    replay.add(id, streamKey, null);
  }

  /** The stream that event {@code lastEventId} was sent on, while the replay buffer holds it. */
  Optional<String> streamOf(String lastEventId) {
    try {
      return replay.streamOf(Long.parseLong(lastEventId.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Re-sends the held events of {@code streamKey} after {@code lastEventId} on {@code stream}. */
  @Override
  public void replay(SseStream stream, String streamKey, String lastEventId) {
    for (ReplayBuffer.Event missed : replay.after(streamKey, Long.parseLong(lastEventId.trim()))) {
      if (!stream.event(Long.toString(missed.id()), missed.data())) {
        return;
      }
    }
  }

  @Override
  public boolean primesStreams() {
    return mcp.protocolVersion().map(ProtocolVersion::primesStreams).orElse(false);
  }

  @Override
  public byte[] bytes(JsonNode message) {
    return server.write(message);
  }

  @Override
  public void write(JsonNode message, OutputStream out) throws IOException {
    server.writeTo(message, out);
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
        GetStream get = getStreams.get(i);
        if (deliver(get.stream(), get.key(), json)) {
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
   * Registers a GET stream if under the cap: {@code opener} writes its headers and first event (it
   * gets the stream's key); then, for a stream resuming {@code streamKey}, the events it missed;
   * then buffered messages; all before any other session message can reach the stream.
   *
   * @param streamKey the key of the GET stream being resumed, or null for a new stream
   * @param lastEventId the last event the client saw on that stream, or null
   */
  synchronized boolean openGetStream(
      SseStream stream, int max, String streamKey, String lastEventId, Consumer<String> opener) {
    getStreams.removeIf(s -> !s.stream().isOpen());
    if (getStreams.size() >= max) {
      return false;
    }
    String key = streamKey == null ? newStreamKey("g") : streamKey;
    opener.accept(key);
    if (streamKey != null) {
      replay(stream, streamKey, lastEventId);
    }
    getStreams.add(new GetStream(stream, key));
    while (!buffered.isEmpty()) {
      JsonNode message = buffered.removeFirst();
      if (!deliver(stream, key, serialize(message))) {
        break;
      }
    }
    return true;
  }

  synchronized void removeGetStream(SseStream stream) {
    getStreams.removeIf(s -> s.stream() == stream);
  }

  synchronized boolean hasOpenGetStream() {
    return getStreams.stream().anyMatch(s -> s.stream().isOpen());
  }

  /** Whether a request of this session is being answered. */
  boolean hasExchanges() {
    return !exchanges.isEmpty();
  }

  void addExchange(PostExchange exchange) {
    exchanges.add(exchange);
    if (exchange.requestKey() != null) {
      byRequest.put(exchange.requestKey(), exchange);
    }
  }

  @Override
  public void fallback(JsonNode message) {
    send(message);
  }

  @Override
  public void removeExchange(PostExchange exchange) {
    exchanges.remove(exchange);
    if (exchange.requestKey() != null) {
      byRequest.remove(exchange.requestKey(), exchange);
    }
  }

  /** The exchange whose (possibly closed) event stream has key {@code streamKey}, if in flight. */
  Optional<PostExchange> exchangeOf(String streamKey) {
    return exchanges.stream().filter(e -> streamKey.equals(e.streamKey())).findFirst();
  }

  @Override
  public boolean closeStream(JsonNode requestId) {
    PostExchange exchange = byRequest.get(PostExchange.requestKey(requestId));
    return exchange != null && exchange.detach();
  }

  /** Writes keep-alive comments on every open stream and turns long silent calls into streams. */
  void keepAlive() {
    List<GetStream> streams;
    synchronized (this) {
      streams = List.copyOf(getStreams);
    }
    streams.forEach(s -> s.stream().comment("keepalive"));
    exchanges.forEach(PostExchange::keepAlive);
  }

  /** Ends the MCP session and closes every stream. */
  void close() {
    server.closeSession(mcp);
    List<GetStream> streams;
    synchronized (this) {
      streams = List.copyOf(getStreams);
      getStreams.clear();
      buffered.clear();
    }
    streams.forEach(s -> s.stream().close());
    exchanges.forEach(PostExchange::abandon);
  }

  /** A GET stream and the key its events are recorded under. */
  private record GetStream(SseStream stream, String key) {}
}
