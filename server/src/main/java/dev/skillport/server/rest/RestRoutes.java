package dev.skillport.server.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.mcp.transport.HttpRoutes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * The REST skill API on the MCP server's port: every path under {@code /v1/}. The token check is
 * the MCP endpoint's ({@link HttpRoutes.Credentials}): without an accepted token (where the server
 * takes tokens) a request is answered 401, after too many wrong ones 429, before its body is read.
 * The caller a request acts for is its token's principal, as on {@code /mcp}. Bodies are JSON up to
 * {@value #MAX_BODY_BYTES} bytes; every answer is JSON, an error {@code {code, message, hint?}}.
 */
public final class RestRoutes implements HttpRoutes {
  static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RestApi api;
  private final BooleanSupplier ready;
  private final BiConsumer<String, Integer> answered;

  /**
   * Routes over {@code api}; requests wait for nothing: before {@code ready} holds (the first
   * catalog is served) they are answered 503, and every answer is reported to {@code answered}
   * (operation, status) for the metrics.
   */
  public RestRoutes(RestApi api, BooleanSupplier ready, BiConsumer<String, Integer> answered) {
    this.api = Objects.requireNonNull(api, "api");
    this.ready = Objects.requireNonNull(ready, "ready");
    this.answered = Objects.requireNonNull(answered, "answered");
  }

  @Override
  public boolean handle(
      Request request, Response response, Callback callback, Credentials credentials) {
    String path = Request.getPathInContext(request);
    if (!path.startsWith("/v1/")) {
      return false;
    }
    HttpRoutes.Attempt attempt =
        credentials.required() ? credentials.attempt(request) : HttpRoutes.Attempt.ACCEPTED;
    if (attempt.result() == HttpRoutes.Attempt.Result.LIMITED) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, attempt.retryAfterSeconds());
      refuse(response, callback, 429, "TOO_MANY_REQUESTS", "too many wrong tokens");
      return true;
    }
    if (attempt.result() != HttpRoutes.Attempt.Result.ACCEPTED) {
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
      refuse(response, callback, 401, "UNAUTHORIZED", "a valid token is required");
      return true;
    }
    if (!ready.getAsBoolean()) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, 1);
      refuse(response, callback, 503, "NOT_READY", "the skills are still loading");
      return true;
    }
    AtomicBoolean gone = new AtomicBoolean();
    request.addFailureListener(failure -> gone.set(true));
    RestApi.Caller caller =
        new RestApi.Caller(
            credentials.caller(request), request.getHeaders().get("traceparent"), gone::get);
    String method = request.getMethod();
    Map<String, String> query = new HashMap<>();
    Fields fields = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
    fields.forEach(f -> query.put(f.getName(), f.getValue()));
    boolean hasBody =
        HttpMethod.POST.is(method) || HttpMethod.PUT.is(method) || HttpMethod.PATCH.is(method);
    if (!hasBody) {
      send(response, callback, api.handle(method, path, query, null, caller));
      return true;
    }
    if (request.getLength() > MAX_BODY_BYTES) {
      refuse(response, callback, 413, "INVALID_REQUEST", "the body is over 4 MiB");
      return true;
    }
    Content.Source.asByteArrayAsync(
        request,
        MAX_BODY_BYTES,
        Promise.Invocable.from(
            Invocable.InvocationType.BLOCKING,
            (byte[] body, Throwable failure) -> {
              if (failure != null) {
                refuse(response, callback, 413, "INVALID_REQUEST", "the body is over 4 MiB");
                return;
              }
              JsonNode parsed;
              try {
                parsed = body.length == 0 ? null : JSON.readTree(body);
              } catch (java.io.IOException e) {
                send(
                    response,
                    callback,
                    RestApi.error(400, "unknown", "PARSE_ERROR", "the body is not JSON", null));
                return;
              }
              send(response, callback, api.handle(method, path, query, parsed, caller));
            }));
    return true;
  }

  private void refuse(Response response, Callback callback, int status, String code, String msg) {
    // The body of a refused request is never read: the connection ends with this answer.
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    send(response, callback, RestApi.error(status, "refused", code, msg, null));
  }

  private void send(Response response, Callback callback, RestApi.Answer answer) {
    answered.accept(answer.operation(), answer.status());
    byte[] body;
    try {
      body = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(answer.body());
    } catch (JsonProcessingException e) {
      callback.failed(e);
      return;
    }
    response.setStatus(answer.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    if (answer.location() != null) {
      response.getHeaders().put(HttpHeader.LOCATION, answer.location());
    }
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
