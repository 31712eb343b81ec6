package dev.skillport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A client wired straight to a server's dispatch, capturing what the server sends back. */
final class InMemoryClient {
  static final ObjectMapper JSON = new ObjectMapper();

  final McpServer server;
  final BlockingQueue<JsonNode> outbound = new LinkedBlockingQueue<>();
  final McpSession session;
  private int nextId = 1;

  InMemoryClient(McpServer server) {
    this.server = server;
    this.session = server.openSession(outbound::add);
  }

  CompletableFuture<JsonNode> sendRaw(String json) {
    JsonRpcMessage message = server.parse(json.getBytes(StandardCharsets.UTF_8));
    return server.dispatch(session, message, outbound::add);
  }

  JsonNode call(String json) {
    return sendRaw(json).orTimeout(5, TimeUnit.SECONDS).join();
  }

  CompletableFuture<JsonNode> request(String method, JsonNode params) {
    ObjectNode message = JSON.createObjectNode();
    message.put("jsonrpc", "2.0");
    message.put("id", nextId++);
    message.put("method", method);
    if (params != null) {
      message.set("params", params);
    }
    return sendRaw(message.toString());
  }

  JsonNode initialize(String version) {
    ObjectNode params = JSON.createObjectNode();
    params.put("protocolVersion", version);
    params.putObject("capabilities");
    params.putObject("clientInfo").put("name", "test-client").put("version", "1");
    return request("initialize", params).orTimeout(5, TimeUnit.SECONDS).join();
  }

  void notify(String method, JsonNode params) {
    ObjectNode message = JSON.createObjectNode();
    message.put("jsonrpc", "2.0");
    message.put("method", method);
    if (params != null) {
      message.set("params", params);
    }
    JsonNode response = sendRaw(message.toString()).join();
    if (response != null) {
      throw new AssertionError("a notification got a response: " + response);
    }
  }

  JsonNode nextOutbound(Duration timeout) throws InterruptedException {
    return outbound.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  static ObjectNode json(String text) {
    try {
      return (ObjectNode) JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(text, e);
    }
  }
}
