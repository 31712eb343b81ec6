package dev.skillport.server.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** JSON-RPC over a launched server's HTTP endpoint, as the tests of both eras speak it. */
final class McpWire {
  static final String LEGACY = "2025-11-25";
  static final String MODERN = "2026-07-28";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private McpWire() {}

  /** A POST to {@code uri} with {@code token}, accepting JSON and event streams. */
  static HttpRequest.Builder request(URI uri, String token) {
    return HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Authorization", "Bearer " + token);
  }

  static HttpRequest.BodyPublisher body(JsonNode message) {
    return HttpRequest.BodyPublishers.ofString(message.toString());
  }

  static HttpResponse<String> send(HttpRequest request) throws Exception {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Opens a 2025-11-25 session as {@code clientName}; returns its id. */
  static String openSession(URI uri, String token, String clientName) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("protocolVersion", LEGACY);
    params.putObject("capabilities");
    params.putObject("clientInfo").put("name", clientName).put("version", "1");
    ObjectNode message =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize");
    message.set("params", params);
    HttpResponse<String> response = send(request(uri, token).POST(body(message)).build());
    String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    ObjectNode initialized =
        JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized");
    send(
        request(uri, token)
            .header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", LEGACY)
            .POST(body(initialized))
            .build());
    return session;
  }

  /** A JSON body, or the last result or error of an event stream; an empty object otherwise. */
  static JsonNode parse(String text) throws Exception {
    String body = text.strip();
    if (body.startsWith("{")) {
      return JSON.readTree(body);
    }
    JsonNode last = JSON.createObjectNode();
    for (String line : body.split("\n")) {
      if (line.startsWith("data:") && line.length() > 5 && !line.substring(5).isBlank()) {
        JsonNode node = JSON.readTree(line.substring(5).strip());
        if (node.has("result") || node.has("error")) {
          last = node;
        }
      }
    }
    return last;
  }
}
