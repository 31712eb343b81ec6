package dev.skillport.server.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One MCP session over Streamable HTTP that returns whole JSON-RPC responses, errors included, for
 * any method ({@code skills/list} too).
 */
final class JsonRpcClient {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final String VERSION = "2025-11-25";

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final URI endpoint;
  private final AtomicInteger ids = new AtomicInteger();
  private final String session;

  JsonRpcClient(URI endpoint) throws Exception {
    this.endpoint = endpoint;
    ObjectNode init = JSON.createObjectNode().put("protocolVersion", VERSION);
    init.putObject("capabilities");
    init.putObject("clientInfo").put("name", "hostile-suite").put("version", "1");
    HttpResponse<String> response = post(message("initialize", init), null);
    session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session);
  }

  /** The whole response to a request: {@code result} or {@code error}. */
  JsonNode request(String method, ObjectNode params) throws Exception {
    HttpResponse<String> response = post(message(method, params), session);
    String body = response.body();
    if (body.stripLeading().startsWith("{")) {
      return JSON.readTree(body);
    }
    JsonNode last = null;
    for (String line : body.split("\n")) {
      if (line.startsWith("data:")) {
        JsonNode m = JSON.readTree(line.substring(5).strip());
        if (m.has("id") && (m.has("result") || m.has("error"))) {
          last = m;
        }
      }
    }
    if (last == null) {
      throw new IllegalStateException("no response to " + method + ": " + body);
    }
    return last;
  }

  /** The HTTP status of a request on this session (404 once the session is gone). */
  int status(String method) throws Exception {
    return post(message(method, JSON.createObjectNode()), session).statusCode();
  }

  /** A tool's result. */
  JsonNode call(String tool, ObjectNode arguments) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("name", tool);
    params.set("arguments", arguments);
    return request("tools/call", params).path("result");
  }

  JsonNode read(String uri) throws Exception {
    return request("resources/read", JSON.createObjectNode().put("uri", uri));
  }

  private String message(String method, ObjectNode params) {
    ObjectNode m = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet());
    m.put("method", method).set("params", params);
    return m.toString();
  }

  private HttpResponse<String> post(String body, String session)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", VERSION);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
