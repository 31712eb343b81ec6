package dev.skillport.mcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.ErrorKind;
import dev.skillport.mcp.LogLevel;
import dev.skillport.mcp.McpException;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Answers serialized into pooled direct buffers: plain JSON bodies larger than one buffer arrive
 * whole with their exact length, an answer that became an event stream carries the same text, and a
 * quick handler answers on the thread that received its request.
 */
class PooledResponseTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Entries in a big answer: about 300 KB, several of the pool's 64 KB buffers. */
  private static final int ENTRIES = 3_000;

  private final AtomicReference<String> listThread = new AtomicReference<>();
  private final AtomicReference<String> callThread = new AtomicReference<>();
  private McpServer server;
  private StreamableHttpTransport transport;
  private HttpTestClient client;
  private String session;

  @BeforeEach
  void start() throws Exception {
    server =
        McpServer.builder(new ServerInfo("pooled-test", "1", null))
            .workerThreads(2)
            .capabilities(() -> JSON.createObjectNode().set("tools", JSON.createObjectNode()))
            .quickHandler("tools/list", this::list)
            .handler("tools/call", this::call)
            .build();
    transport = StreamableHttpTransport.builder(server).port(0).build();
    transport.start();
    client = new HttpTestClient(transport.uri());
    session = client.initialize("2025-11-25");
  }

  @AfterEach
  void stop() {
    transport.close();
    server.close();
  }

  private JsonNode list(RequestContext ctx, JsonNode params) throws McpException {
    listThread.set(Thread.currentThread().getName());
    if (params.has("cursor")) {
      throw new McpException(ErrorKind.INVALID_PARAMS, "no such cursor");
    }
    return big("tool");
  }

  private JsonNode call(RequestContext ctx, JsonNode params) {
    callThread.set(Thread.currentThread().getName());
    if (params.path("name").asText().equals("stream")) {
      // Something tied to the request before its result turns the answer into an event stream.
      ctx.log(LogLevel.INFO, "t", "before");
    }
    ObjectNode result = JSON.createObjectNode();
    result.putArray("content").addObject().put("type", "text").put("text", big("line").toString());
    return result;
  }

  /** {@value #ENTRIES} entries, each with a non-ASCII character so byte and char counts differ. */
  private static ObjectNode big(String kind) {
    ObjectNode result = JSON.createObjectNode();
    ArrayNode tools = result.putArray("tools");
    for (int i = 0; i < ENTRIES; i++) {
      tools
          .addObject()
          .put("name", kind + "_" + i)
          .put("description", "Entry " + i + " of a big answer, déjà vu included");
    }
    return result;
  }

  private HttpResponse<String> post(String method, String params) throws Exception {
    return client.post(
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"" + method + "\",\"params\":" + params + "}",
        Map.of("Mcp-Session-Id", session));
  }

  @Test
  void aBodyOfSeveralBuffersArrivesWholeWithItsExactLength() throws Exception {
    HttpResponse<String> response = post("tools/list", "{}");

    assertEquals(200, response.statusCode());
    assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
    long length = response.body().getBytes(StandardCharsets.UTF_8).length;
    assertTrue(length > 3 * 64 * 1024, "the body spans several pooled buffers: " + length);
    assertEquals(length, response.headers().firstValueAsLong("Content-Length").orElseThrow());
    JsonNode tools = JSON.readTree(response.body()).path("result").path("tools");
    assertEquals(ENTRIES, tools.size());
    assertEquals(big("tool").get("tools"), tools);
  }

  @Test
  void aWorkersBigAnswerArrivesWholeToo() throws Exception {
    HttpResponse<String> response = post("tools/call", "{\"name\":\"x\"}");

    assertEquals(200, response.statusCode());
    String text =
        JSON.readTree(response.body()).path("result").path("content").get(0).path("text").asText();
    assertEquals(big("line").toString(), text);
    assertEquals(
        response.body().getBytes(StandardCharsets.UTF_8).length,
        response.headers().firstValueAsLong("Content-Length").orElseThrow());
  }

  @Test
  void anErrorFromAQuickHandlerIsAnsweredAsOne() throws Exception {
    HttpResponse<String> response = post("tools/list", "{\"cursor\":\"x\"}");

    assertEquals(200, response.statusCode());
    JsonNode error = JSON.readTree(response.body()).path("error");
    assertEquals(-32602, error.path("code").asInt());
    assertEquals("no such cursor", error.path("message").asText());
  }

  @Test
  void aQuickHandlerRunsOnTheReceivingThreadAndAWorkerHandlerOnAWorker() throws Exception {
    post("tools/list", "{}");
    post("tools/call", "{\"name\":\"x\"}");

    assertTrue(callThread.get().startsWith("mcp-worker"), callThread.get());
    assertFalse(listThread.get().startsWith("mcp-worker"), listThread.get());
    assertNotEquals(callThread.get(), listThread.get());
  }

  @Test
  void aBigAnswerAfterAnEventGoesOutWholeOnTheStream() throws Exception {
    HttpResponse<String> response = post("tools/call", "{\"name\":\"stream\"}");

    assertEquals(200, response.statusCode());
    assertEquals("text/event-stream", response.headers().firstValue("Content-Type").orElseThrow());
    JsonNode result = null;
    for (String line : response.body().split("\n")) {
      if (line.startsWith("data:")) {
        JsonNode message = JSON.readTree(line.substring(5));
        if (message.has("result")) {
          result = message.path("result");
        }
      }
    }
    assertNotNull(result, response.body());
    assertEquals(big("line").toString(), result.path("content").get(0).path("text").asText());
  }
}
