package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.mcp.OutboundChannel;
import java.io.IOException;
import org.eclipse.jetty.io.ByteBufferPool;
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
 *
 * <p>A primed event stream (2025-11-25) is resumable: once it is closed before the result (by the
 * application, or by the client going away), later messages and the result are kept in the
 * session's replay buffer, and a client that reconnects with {@code GET} and {@code Last-Event-ID}
 * receives them on the new stream, which then carries the rest of the call.
 *
 * <p>A modern-era exchange has no session: its events carry no ids, nothing is replayed, messages
 * its stream cannot carry are dropped, and the client going away cancels the call.
 */
final class PostExchange implements OutboundChannel {
  private enum State {
    PENDING,
    STREAMING,
    DETACHED,
    DONE
  }

  private final ExchangeHost session;
  private final Request request;
  private final Response response;
  private final Callback callback;
  // Taken while the request is live: a detached exchange completes after its request has ended.
  private final ByteBufferPool pool;
  private final boolean acceptsSse;
  private final int maxQueued;
  private final String requestKey;
  private final String streamKey;
  private State state = State.PENDING;
  private SseStream stream;
  private boolean primed;
  private boolean sawTick;
  private Runnable onClientGone = () -> {};

  PostExchange(
      ExchangeHost session,
      Request request,
      Response response,
      Callback callback,
      boolean acceptsSse,
      int maxQueued,
      JsonNode requestId) {
    this.session = session;
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.pool = request.getComponents().getByteBufferPool();
    this.acceptsSse = acceptsSse;
    this.maxQueued = maxQueued;
    this.requestKey = requestId == null ? null : requestKey(requestId);
    this.streamKey = session.newStreamKey("p");
  }

  /**
   * Runs {@code hook} when the client goes away before the call is answered: its event stream could
   * not be written (a keep-alive turns a long call into a stream, so a silent call notices too).
   * The modern era cancels the call then.
   */
  synchronized void onClientGone(Runnable hook) {
    this.onClientGone = hook;
  }

  /**
   * A request id as a map key; the number 1 and the string "1" stay apart. Built on every request,
   * so the usual ids (a string, an integer) skip Jackson's tree writer.
   */
  static String requestKey(JsonNode requestId) {
    if (requestId.isTextual()) {
      return "s" + requestId.textValue();
    }
    if (requestId.isIntegralNumber()) {
      return "n" + requestId.asText();
    }
    return requestId.toString();
  }

  String requestKey() {
    return requestKey;
  }

  String streamKey() {
    return streamKey;
  }

  @Override
  public void send(JsonNode message) {
    String json = session.serialize(message);
    synchronized (this) {
      if (state == State.PENDING && acceptsSse) {
        startStream();
      }
      if ((state == State.STREAMING || state == State.DETACHED) && emit(json)) {
        return;
      }
    }
    session.fallback(message);
  }

  /** Sends the response (or, for null, ends without one) and finishes the exchange. */
  void complete(JsonNode message) {
    complete(message, 200);
  }

  /**
   * Sends the response with {@code status} when it goes out as plain JSON (an event stream has
   * already answered 200), or ends without one for null, and finishes the exchange.
   */
  void complete(JsonNode message, int status) {
    // A plain JSON body is serialized straight into pooled direct buffers and written from them (a
    // listing page is tens of KB: no growing array, no exact-size copy, no copy for the socket);
    // only an event stream needs the text.
    PooledBody body = message == null ? null : body(message);
    try {
      synchronized (this) {
        switch (state) {
          case PENDING -> {
            state = State.DONE;
            if (body == null) {
              response.setStatus(202);
              response.write(true, BufferUtil.EMPTY_BUFFER, callback);
            } else {
              PooledBody sent = body;
              body = null;
              sent.send(response, status, callback);
            }
          }
          case STREAMING, DETACHED -> {
            if (body != null) {
              emit(body.text());
            }
            state = State.DONE;
            stream.close();
          }
          case DONE -> {}
        }
      }
    } finally {
      if (body != null) {
        body.release();
      }
    }
    session.removeExchange(this);
  }

  /**
   * {@code message} serialized into pooled buffers; when it cannot be (the server's writer then
   * answers with an internal error), the bytes the server's writer gives instead.
   */
  private PooledBody body(JsonNode message) {
    PooledBody body = new PooledBody(pool);
    try {
      session.write(message, body);
      return body;
    } catch (IOException | RuntimeException e) {
      body.release();
      PooledBody fallback = new PooledBody(pool);
      byte[] bytes = session.bytes(message);
      fallback.write(bytes, 0, bytes.length);
      return fallback;
    }
  }

  /**
   * Keeps a long call's connection alive, switching to a stream when the client accepts one. A call
   * switches at its second tick, so only a call pending a whole interval does: a quick answer keeps
   * its plain JSON body and HTTP status.
   */
  synchronized void keepAlive() {
    if (state == State.PENDING && acceptsSse) {
      if (!sawTick) {
        sawTick = true;
        return;
      }
      startStream();
    }
    if (state == State.STREAMING || state == State.DETACHED) {
      stream.comment("keepalive");
    }
  }

  /** Ends the exchange without a response because the session is gone. */
  void abandon() {
    complete(null);
  }

  /**
   * Closes the event stream before the result, when the client can resume it: opens (and primes)
   * the stream first if the call has not streamed yet.
   *
   * @return whether the stream was closed for the client to resume
   */
  synchronized boolean detach() {
    if (state == State.PENDING && acceptsSse && session.primesStreams()) {
      startStream();
    }
    if (state != State.STREAMING || !primed) {
      return false;
    }
    state = State.DETACHED;
    stream.close();
    return true;
  }

  /**
   * Continues this call's stream on {@code resumed}, a GET the client opened with {@code
   * Last-Event-ID}: the events it missed go out first, then the rest of the call; the stream ends
   * with the result (at once, if the call has already been answered).
   */
  synchronized void resume(SseStream resumed, String lastEventId) {
    session.replay(resumed, streamKey, lastEventId);
    if (state == State.DONE) {
      resumed.close();
      return;
    }
    if (stream != null && stream.isOpen()) {
      stream.close();
    }
    stream = resumed;
    state = State.DETACHED;
  }

  /** The stream ended: by the answer, by the server on purpose, or because the client left. */
  private void streamClosed() {
    Runnable hook;
    synchronized (this) {
      if (state != State.STREAMING) {
        return;
      }
      hook = onClientGone;
    }
    hook.run();
  }

  /** Sends on the current stream; a primed stream that is gone keeps the event for replay. */
  private boolean emit(String json) {
    if (session.deliver(stream, streamKey, json)) {
      return true;
    }
    if (primed) {
      session.store(streamKey, json);
      return true;
    }
    return false;
  }

  private void startStream() {
    SseStream.begin(response);
    stream = new SseStream(response, callback, maxQueued, this::streamClosed);
    request.addFailureListener(stream::abort);
    state = State.STREAMING;
    if (session.primesStreams()) {
      session.prime(stream, streamKey);
      primed = true;
    }
  }
}
