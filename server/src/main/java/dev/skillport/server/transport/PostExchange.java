package dev.skillport.server.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.server.mcp.OutboundChannel;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * One POSTed request waiting for its answer. It answers with plain {@code application/json} unless,
 * before the result is ready, the handler sends something tied to the request (progress, a log
 * entry, a request to the client) or the call runs longer than a keep-alive interval: then, if the
 * client accepts {@code text/event-stream}, the response becomes an event stream carrying those
 * messages and finally the result. Clients that accept only JSON get those messages on the
 * session's GET stream instead.
 */
final class PostExchange implements OutboundChannel {
  private enum State {
    PENDING,
    STREAMING,
    DONE
  }

  private final HttpSession session;
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final boolean acceptsSse;
  private final int maxQueued;
  private State state = State.PENDING;
  private SseStream stream;

  PostExchange(
      HttpSession session,
      Request request,
      Response response,
      Callback callback,
      boolean acceptsSse,
      int maxQueued) {
    this.session = session;
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.acceptsSse = acceptsSse;
    this.maxQueued = maxQueued;
  }

  @Override
  public void send(JsonNode message) {
    String json = session.serialize(message);
    synchronized (this) {
      if (state == State.PENDING && acceptsSse) {
        startStream();
      }
      if (state == State.STREAMING && stream.event(session.nextEventId(), json)) {
        return;
      }
    }
    session.send(message);
  }

  /** Sends the response (or, for null, ends without one) and finishes the exchange. */
  void complete(JsonNode message) {
    String json = message == null ? null : session.serialize(message);
    synchronized (this) {
      switch (state) {
        case PENDING -> {
          state = State.DONE;
          if (json == null) {
            response.setStatus(202);
            response.write(true, BufferUtil.EMPTY_BUFFER, callback);
          } else {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)), callback);
          }
        }
        case STREAMING -> {
          state = State.DONE;
          if (json != null) {
            stream.event(session.nextEventId(), json);
          }
          stream.close();
        }
        case DONE -> {}
      }
    }
    session.removeExchange(this);
  }

  /** Keeps a long call's connection alive, switching to a stream when the client accepts one. */
  synchronized void keepAlive() {
    if (state == State.PENDING && acceptsSse) {
      startStream();
    }
    if (state == State.STREAMING) {
      stream.comment("keepalive");
    }
  }

  /** Ends the exchange without a response because the session is gone. */
  void abandon() {
    complete(null);
  }

  private void startStream() {
    SseStream.begin(response);
    stream = new SseStream(response, callback, maxQueued, () -> {});
    request.addFailureListener(stream::abort);
    state = State.STREAMING;
    if (session.primesStreams()) {
      stream.prime(session.nextEventId(), 1000);
    }
  }
}
