package dev.skillport.mcp.transport;

import java.nio.ByteBuffer;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * How the server turns requests away when it is full: {@code 503} with {@code Retry-After} and a
 * JSON-RPC error naming the status, so that a client can tell overload from a failure and come back
 * later, instead of a reset or a connection closed without an answer.
 *
 * <p>Requests that carry MCP messages ({@code POST}) pass Jetty's {@link QoSHandler}: at most a
 * number of them are handled at once; past it a request waits, suspended without a thread, for room
 * up to a time limit, and past the number allowed to wait, or the time, it is answered 503. Event
 * streams, probes and pages ({@code GET}) are not limited here: a stream lasts as long as its
 * client keeps it, and a probe must answer while the server is busy.
 */
final class Overload {
  /** Seconds a refused client is told to wait before trying again. */
  static final int RETRY_AFTER_SECONDS = 2;

  private Overload() {}

  /** A handler that answers every request 503 with {@code Retry-After}, telling {@code events}. */
  static Handler answer(EdgeListener events) {
    return new Handler.Abstract.NonBlocking() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        refuse(response, callback, events);
        return true;
      }
    };
  }

  /**
   * Jetty's {@link QoSHandler} around {@code next}, for POST requests: {@code maxRequests} at once,
   * {@code maxWaiting} more suspended for at most {@code maxWait}, the rest answered 503.
   */
  static QoSHandler limit(
      Handler next, int maxRequests, int maxWaiting, Duration maxWait, EdgeListener events) {
    QoSHandler qos =
        new QoSHandler(next) {
          @Override
          protected void reject(Request request, Response response, Callback callback, int status) {
            refuse(response, callback, events);
          }

          @Override
          protected void failSuspended(
              Request request, Response response, Callback callback, int status, Throwable x) {
            refuse(response, callback, events);
          }
        };
    qos.includeMethod(HttpMethod.POST.asString());
    qos.setMaxRequestCount(maxRequests);
    qos.setMaxSuspendedRequestCount(maxWaiting);
    qos.setMaxSuspend(maxWait);
    return qos;
  }

  private static void refuse(Response response, Callback callback, EdgeListener events) {
    events.on(EdgeListener.Event.OVERLOADED);
    response.setStatus(503);
    response.getHeaders().put(HttpHeader.RETRY_AFTER, RETRY_AFTER_SECONDS);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    // The request's body is never read: the connection ends with the answer.
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    response.write(true, ByteBuffer.wrap(JsonErrorHandler.body(503)), callback);
  }
}
