package dev.skillport.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Raw HTTP calls against the MCP endpoint, for tests that need to see status codes and headers. */
final class HttpTestClient {
  static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"%s\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  final URI endpoint;

  HttpTestClient(URI endpoint) {
    this.endpoint = endpoint;
  }

  HttpResponse<String> post(String body, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::setHeader);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String body, String sessionId)
      throws IOException, InterruptedException {
    return post(body, Map.of("Mcp-Session-Id", sessionId));
  }

  /** Initializes a session and returns its id. */
  String initialize(String version) throws IOException, InterruptedException {
    HttpResponse<String> response = post(String.format(INIT, version), Map.of());
    if (response.statusCode() != 200) {
      throw new AssertionError(
          "initialize failed: " + response.statusCode() + " " + response.body());
    }
    String id = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", id);
    return id;
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(
        request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Opens a GET event stream; its lines arrive on the returned queue. */
  EventStream openStream(String sessionId) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(endpoint)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", sessionId)
            .GET()
            .build();
    HttpResponse<Stream<String>> response =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofLines()).get(5, TimeUnit.SECONDS);
    EventStream stream = new EventStream(response);
    stream.start();
    return stream;
  }

  static JsonNode json(String text) throws IOException {
    return EchoApplication.JSON.readTree(text);
  }

  /** Lines of an event stream, read on a background thread. */
  static final class EventStream implements AutoCloseable {
    final HttpResponse<Stream<String>> response;
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private CompletableFuture<Void> reader;

    EventStream(HttpResponse<Stream<String>> response) {
      this.response = response;
    }

    void start() {
      reader = CompletableFuture.runAsync(() -> response.body().forEach(lines::add));
    }

    /** The next {@code data:} payload that parses as JSON, skipping priming events and comments. */
    JsonNode nextMessage(Duration timeout) throws Exception {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        String line =
            lines.poll(
                Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
        if (line != null && line.startsWith("data:") && line.length() > 6) {
          return json(line.substring(5).trim());
        }
      }
      return null;
    }

    @Override
    public void close() {
      response.body().close();
      reader.cancel(true);
    }
  }
}
