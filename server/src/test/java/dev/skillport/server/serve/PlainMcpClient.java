package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A 2025-11-25 session over Streamable HTTP with nothing but {@link HttpClient}, so a test sees the
 * server's JSON exactly as it is written: no SDK model in between.
 */
final class PlainMcpClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI endpoint;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private String session;
  private int nextId = 1;

  PlainMcpClient(URI endpoint) {
    this.endpoint = endpoint;
  }

  /** Sends {@code initialize} and {@code notifications/initialized}. */
  PlainMcpClient open() throws Exception {
    request(
        "initialize",
        JSON.readTree(
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"docs\",\"version\":\"1\"}}"));
    HttpResponse<Void> initialized =
        client.send(
            post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
            HttpResponse.BodyHandlers.discarding());
    assertThat(initialized.statusCode()).isEqualTo(202);
    return this;
  }

  /** The {@code result} of a {@code tools/call}. */
  JsonNode call(String tool, JsonNode arguments) throws Exception {
    return request(
        "tools/call", JSON.createObjectNode().put("name", tool).set("arguments", arguments));
  }

  /** Sends one request and returns its result, from a JSON body or an event stream. */
  JsonNode request(String method, JsonNode params) throws Exception {
    int id = nextId++;
    ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    message.put("method", method).set("params", params);
    HttpResponse<String> response =
        client.send(post(JSON.writeValueAsString(message)), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    response.headers().firstValue("Mcp-Session-Id").ifPresent(s -> session = s);
    List<String> payloads = new ArrayList<>();
    if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
      for (String line : response.body().split("\n")) {
        if (line.startsWith("data:")) {
          payloads.add(line.substring(5).strip());
        }
      }
    } else {
      payloads.add(response.body());
    }
    for (String payload : payloads) {
      JsonNode answer = JSON.readTree(payload);
      if (answer.path("id").asInt() == id) {
        assertThat(answer.has("error")).as(payload).isFalse();
        return answer.get("result");
      }
    }
    throw new AssertionError("no answer to " + method + " in " + response.body());
  }

  private HttpRequest post(String body) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    return builder.build();
  }
}
