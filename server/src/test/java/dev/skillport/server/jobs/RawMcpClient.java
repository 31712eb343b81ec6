package dev.skillport.runtime.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;

/** A minimal MCP client over Streamable HTTP: one session, JSON or event-stream answers. */
public final class RawMcpClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI endpoint;
  private final AtomicInteger ids = new AtomicInteger();
  private final String session;

  public RawMcpClient(URI endpoint) throws Exception {
    this.endpoint = endpoint;
    ObjectNode init = JSON.createObjectNode();
    init.put("protocolVersion", "2025-06-18").putObject("capabilities");
    init.putObject("clientInfo").put("name", "raw-test").put("version", "1");
    HttpResponse<String> response = post(request("initialize", init), null);
    this.session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session);
  }

  /** Calls {@code tool} as a job and returns the job id. */
  public String callAsync(String tool, ObjectNode args) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", args);
    params.putObject("_meta").putObject("dcc").put("async", true);
    JsonNode result = call(params);
    assertThat(result.path("structuredContent").path("status").asText()).isEqualTo("pending");
    return result.path("structuredContent").path("job_id").asText();
  }

  /** The job's status, with its result once it has one. */
  public JsonNode status(String id) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", "jobs_get_status");
    params.putObject("arguments").put("job_id", id).put("include_result", true);
    JsonNode result = call(params);
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    return result.path("structuredContent");
  }

  /**
   * Opens the session's GET event stream; its {@code data:} messages arrive on the returned list.
   */
  public List<JsonNode> openStream() throws Exception {
    List<JsonNode> received = new CopyOnWriteArrayList<>();
    HttpRequest request =
        HttpRequest.newBuilder(endpoint)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", session)
            .GET()
            .build();
    http.sendAsync(
        request,
        HttpResponse.BodyHandlers.fromLineSubscriber(
            new Flow.Subscriber<String>() {
              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
              }

              @Override
              public void onNext(String line) {
                if (line.startsWith("data:")) {
                  try {
                    received.add(JSON.readTree(line.substring(5).strip()));
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                }
              }

              @Override
              public void onError(Throwable e) {}

              @Override
              public void onComplete() {}
            }));
    return received;
  }

  /** Calls a tool and returns its result. */
  public JsonNode call(ObjectNode params) throws Exception {
    return result("tools/call", params);
  }

  /** Sends a request ({@code tools/list}, …) and returns its result. */
  public JsonNode result(String method, ObjectNode params) throws Exception {
    for (JsonNode m : messages(method, params)) {
      if (m.has("id") && (m.has("result") || m.has("error"))) {
        return m.path("result");
      }
    }
    throw new AssertionError("no response to " + method + " " + params);
  }

  /**
   * Sends a request with a given id without waiting; the future completes with every message of the
   * answer (notifications, then the response, if one came).
   */
  public CompletableFuture<List<JsonNode>> requestAsync(int id, String method, ObjectNode params) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    r.put("method", method).set("params", params);
    HttpRequest request =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(120))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Mcp-Session-Id", session)
            .POST(HttpRequest.BodyPublishers.ofString(r.toString()))
            .build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .thenApply(
            response -> {
              try {
                return messages(response.body());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  /** Sends a notification ({@code notifications/cancelled}, …). */
  public void notify(String method, ObjectNode params) throws Exception {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
    r.set("params", params);
    post(r.toString(), session);
  }

  /** Ends the session ({@code DELETE}), as a client that goes away does. */
  public void close() throws Exception {
    http.send(
        HttpRequest.newBuilder(endpoint).header("Mcp-Session-Id", session).DELETE().build(),
        HttpResponse.BodyHandlers.discarding());
  }

  /** Calls a tool and returns every message of the answer: notifications, then the response. */
  List<JsonNode> callMessages(ObjectNode params) throws Exception {
    return messages("tools/call", params);
  }

  private List<JsonNode> messages(String method, ObjectNode params) throws Exception {
    HttpResponse<String> response = post(request(method, params), session);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return messages(response.body());
  }

  private String request(String method, ObjectNode params) {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet());
    r.put("method", method).set("params", params);
    return r.toString();
  }

  /** The messages in a body that is either one JSON message or an event stream. */
  private static List<JsonNode> messages(String body) throws IOException {
    if (body.isBlank()) {
      return List.of();
    }
    if (body.stripLeading().startsWith("{")) {
      return List.of(JSON.readTree(body));
    }
    List<JsonNode> out = new ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.startsWith("data:")) {
        out.add(JSON.readTree(line.substring(5).strip()));
      }
    }
    return out;
  }

  private HttpResponse<String> post(String body, String sessionId)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (sessionId != null) {
      b.header("Mcp-Session-Id", sessionId);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
