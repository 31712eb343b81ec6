package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The era of a stdio connection is chosen by its opening message: a modern request makes the whole
 * process stateless ({@code notifications/cancelled} cancels by id, {@code initialize} is gone); an
 * {@code initialize} makes it one legacy session.
 */
@Timeout(30)
class ModernEraStdioTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private final AtomicInteger cancelled = new AtomicInteger();
  private McpServer server;
  private OutputStream toServer;
  private final BlockingQueue<String> fromServer = new LinkedBlockingQueue<>();

  @BeforeEach
  void setUp() throws IOException {
    server =
        McpServer.builder(new ServerInfo("stdio-modern", "1", null))
            .workerThreads(2)
            .capabilities(() -> JSON.createObjectNode().set("tools", JSON.createObjectNode()))
            .handler("tools/call", this::call)
            .build();
    PipedInputStream serverIn = new PipedInputStream(1 << 20);
    toServer = new PipedOutputStream(serverIn);
    PipedOutputStream serverOut = new PipedOutputStream();
    PipedInputStream clientIn = new PipedInputStream(serverOut, 1 << 20);
    StdioTransport transport = new StdioTransport(server, serverIn, serverOut, 1 << 16);
    CompletableFuture.runAsync(transport::run);
    CompletableFuture.runAsync(
        () -> {
          try (BufferedReader reader =
              new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
              fromServer.add(line);
            }
          } catch (IOException e) {
            // the server side closed
          }
        });
  }

  @AfterEach
  void tearDown() throws IOException {
    toServer.close();
    server.close();
  }

  private JsonNode call(RequestContext ctx, JsonNode params) {
    if (params.path("name").asText().equals("slow")) {
      ctx.onCancel(cancelled::incrementAndGet);
      while (!ctx.cancelled()) {
        pause();
      }
    }
    ObjectNode result = JSON.createObjectNode();
    result.putArray("content").addObject().put("type", "text").put("text", ctx.era().name());
    return result;
  }

  private void send(String line) throws IOException {
    toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    toServer.flush();
  }

  private JsonNode next() throws Exception {
    String line = fromServer.poll(5, TimeUnit.SECONDS);
    assertThat(line).as("a line from the server").isNotNull();
    return JSON.readTree(line);
  }

  @Test
  void modernOpening_makesEveryRequestStateless() throws Exception {
    send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" + META + "}}");
    JsonNode discover = next();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
            + META
            + "}}");
    JsonNode call = next();
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}");
    JsonNode withoutMeta = next();
    send(String.format(HttpTestClient.INIT, "2025-11-25"));
    JsonNode initialize = next();

    assertThat(discover.at("/result/supportedVersions/0").asText()).isEqualTo("2026-07-28");
    assertThat(call.at("/result/content/0/text").asText()).isEqualTo("MODERN");
    assertThat(call.at("/result/resultType").asText()).isEqualTo("complete");
    assertThat(withoutMeta.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(withoutMeta.path("id").asInt()).isEqualTo(3);
    assertThat(initialize.at("/error/code").asInt()).isEqualTo(-32601);
  }

  @Test
  void modern_cancelledNotification_cancelsTheCallAndNothingIsAnswered() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\","
            + META
            + "}}");
    Thread.sleep(100);
    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"s1\"}}");
    await().atMost(Duration.ofSeconds(10)).until(() -> cancelled.get() == 1);
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
            + META
            + "}}");

    JsonNode answer = next();
    assertThat(answer.path("id").asInt()).as("the cancelled call got no answer").isEqualTo(2);
  }

  @Test
  void unsupportedModernOpening_isAnsweredAndLeavesTheChoiceOpen() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    JsonNode refused = next();
    send(String.format(HttpTestClient.INIT, "2025-11-25"));
    JsonNode initialize = next();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
            + META
            + "}}");
    JsonNode call = next();

    assertThat(refused.at("/error/code").asInt()).isEqualTo(-32022);
    assertThat(refused.at("/error/data/supported/0").asText()).isEqualTo("2026-07-28");
    assertThat(initialize.at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
    assertThat(call.at("/result/content/0/text").asText()).isEqualTo("LEGACY");
  }

  private static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
