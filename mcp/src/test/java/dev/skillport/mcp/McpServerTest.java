package dev.skillport.mcp;

import static dev.skillport.mcp.InMemoryClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class McpServerTest {
  private final CountDownLatch slowStarted = new CountDownLatch(1);
  private final CountDownLatch slowRelease = new CountDownLatch(1);
  private final AtomicReference<RequestContext> lastContext = new AtomicReference<>();
  private final List<McpSession> opened = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<McpSession> closed = new java.util.concurrent.CopyOnWriteArrayList<>();
  private McpServer server;
  private InMemoryClient client;

  @BeforeEach
  void setUp() {
    server =
        McpServer.builder(new ServerInfo("test-server", "1.2.3", "Use the echo tool."))
            .capabilities(() -> json("{\"tools\":{\"listChanged\":true}}"))
            .handler(
                "tools/call",
                (ctx, params) -> {
                  lastContext.set(ctx);
                  if (!params.has("name")) {
                    throw new McpException(ErrorKind.INVALID_PARAMS, "name is required");
                  }
                  ctx.progress(1, 3.0, "one");
                  ctx.progress(1, 3.0, "repeated, dropped");
                  ctx.progress(2, 3.0, null);
                  ctx.log(LogLevel.DEBUG, "echo", "debug detail");
                  ctx.log(LogLevel.WARNING, "echo", "careful");
                  return json("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}");
                })
            .handler(
                "slow/call",
                (ctx, params) -> {
                  lastContext.set(ctx);
                  slowStarted.countDown();
                  try {
                    slowRelease.await(5, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return json("{\"done\":true}");
                })
            .handler(
                "broken/call",
                (ctx, params) -> {
                  throw new IllegalStateException("secret internal detail");
                })
            .sessionListener(
                new SessionListener() {
                  @Override
                  public void sessionOpened(McpSession session) {
                    opened.add(session);
                  }

                  @Override
                  public void sessionClosed(McpSession session) {
                    closed.add(session);
                  }
                })
            .build();
    client = new InMemoryClient(server);
  }

  @AfterEach
  void tearDown() {
    slowRelease.countDown();
    server.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", "2025-06-18", "2025-03-26"})
  void initialize_supportedVersion_answersSameVersion(String version) {
    JsonNode response = client.initialize(version);

    assertThat(response.path("result").path("protocolVersion").asText()).isEqualTo(version);
    assertThat(client.session.protocolVersion()).map(ProtocolVersion::wire).contains(version);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2026-07-28", "garbage"})
  void initialize_unknownVersion_answersLatest(String version) {
    JsonNode response = client.initialize(version);

    assertThat(response.path("result").path("protocolVersion").asText()).isEqualTo("2025-11-25");
  }

  @Test
  void initialize_result_carriesServerInfoCapabilitiesAndInstructions() {
    JsonNode result = client.initialize("2025-11-25").path("result");

    assertThat(result.path("serverInfo").path("name").asText()).isEqualTo("test-server");
    assertThat(result.path("serverInfo").path("version").asText()).isEqualTo("1.2.3");
    assertThat(result.path("instructions").asText()).isEqualTo("Use the echo tool.");
    assertThat(result.path("capabilities").path("tools").path("listChanged").asBoolean()).isTrue();
    assertThat(result.path("capabilities").has("logging")).isTrue();
    assertThat(opened).containsExactly(client.session);
    assertThat(client.session.clientInfo().path("name").asText()).isEqualTo("test-client");
  }

  @Test
  void write_resultThatCannotBeSerialized_isAnInternalErrorForTheSameRequest() throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode response =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    response.put("jsonrpc", "2.0").put("id", 41);
    response
        .putObject("result")
        .putPOJO(
            "tools",
            new com.fasterxml.jackson.databind.JsonSerializable.Base() {
              @Override
              public void serialize(
                  com.fasterxml.jackson.core.JsonGenerator gen,
                  com.fasterxml.jackson.databind.SerializerProvider provider) {
                throw new IllegalArgumentException("cannot be written");
              }

              @Override
              public void serializeWithType(
                  com.fasterxml.jackson.core.JsonGenerator gen,
                  com.fasterxml.jackson.databind.SerializerProvider provider,
                  com.fasterxml.jackson.databind.jsontype.TypeSerializer type) {
                serialize(gen, provider);
              }
            });

    JsonNode written =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(server.write(response));

    assertThat(written.path("id").asInt()).isEqualTo(41);
    assertThat(written.path("error").path("code").asInt()).isEqualTo(-32603);
    assertThat(written.has("result")).isFalse();
  }

  @Test
  void initialize_twice_isInvalidRequest() {
    client.initialize("2025-11-25");

    JsonNode second = client.initialize("2025-11-25");

    assertThat(second.path("error").path("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void initialize_withoutProtocolVersion_isInvalidParams() {
    JsonNode response =
        client.call("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{}}");

    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(response.path("id").asInt()).isEqualTo(7);
    assertThat(client.session.isInitialized()).isFalse();
  }

  @Test
  void ping_beforeAndAfterInitialize_answersEmptyObject() {
    JsonNode before = client.call("{\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}");
    client.initialize("2025-11-25");
    JsonNode after = client.call("{\"jsonrpc\":\"2.0\",\"id\":\"p2\",\"method\":\"ping\"}");

    assertThat(before.path("result").isObject()).isTrue();
    assertThat(before.path("result").isEmpty()).isTrue();
    assertThat(before.path("id").asText()).isEqualTo("p1");
    assertThat(after.path("result").isEmpty()).isTrue();
  }

  @Test
  void unknownMethod_beforeOrAfterInitialize_isMethodNotFound() {
    JsonNode before = client.call("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}");
    client.initialize("2025-11-25");
    JsonNode after = client.call("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no/such\"}");

    assertThat(before.path("error").path("code").asInt()).isEqualTo(-32601);
    assertThat(after.path("error").path("code").asInt()).isEqualTo(-32601);
  }

  @Test
  void knownMethod_beforeInitialize_isInvalidRequestAtOnce() {
    JsonNode response =
        client.call(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}");

    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(response.path("error").path("message").asText()).contains("initialize");
    assertThat(lastContext.get()).isNull();
  }

  @Test
  void handler_throwingInvalidParams_isMinus32602() {
    client.initialize("2025-11-25");

    JsonNode response = client.request("tools/call", json("{}")).join();

    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(response.path("error").path("message").asText()).isEqualTo("name is required");
  }

  @Test
  void handler_throwingUnexpectedException_isInternalErrorWithoutDetail() {
    client.initialize("2025-11-25");

    JsonNode response = client.request("broken/call", json("{}")).join();

    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32603);
    assertThat(response.toString()).doesNotContain("secret");
  }

  @Test
  void malformedJson_isParseErrorWithNullId() {
    JsonNode response = client.call("{\"jsonrpc\":\"2.0\",\"id\":1,");

    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(response.get("id").isNull()).isTrue();
  }

  @Test
  void notJsonRpc_isInvalidRequest() {
    assertThat(client.call("[1]").path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(client.call("{\"id\":1,\"method\":\"ping\"}").path("error").path("code").asInt())
        .isEqualTo(-32600);
    assertThat(
            client
                .call("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}")
                .path("error")
                .path("code")
                .asInt())
        .isEqualTo(-32600);
    assertThat(client.call("42").path("error").path("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void batch_on2025_03_26Session_isProcessed() {
    client.initialize("2025-03-26");

    JsonNode response =
        client.call(
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}]");

    assertThat(response.isArray()).isTrue();
    assertThat(response).hasSize(2);
    assertThat(response.get(0).path("id").asInt()).isEqualTo(1);
    assertThat(response.get(1).path("error").path("code").asInt()).isEqualTo(-32601);
    assertThat(client.session.isClientReady()).isTrue();
  }

  @Test
  void batch_on2025_11_25Session_isInvalidRequest() {
    client.initialize("2025-11-25");

    JsonNode response = client.call("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");

    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void notifications_getNoResponse() throws InterruptedException {
    client.initialize("2025-11-25");

    client.notify("notifications/initialized", null);
    client.notify("notifications/unknown", json("{}"));

    assertThat(client.session.isClientReady()).isTrue();
    assertThat(client.nextOutbound(Duration.ofMillis(50))).isNull();
  }

  @Test
  void progress_withStringToken_sendsIncreasingNotificationsOnly() throws InterruptedException {
    client.initialize("2025-11-25");

    JsonNode response =
        client
            .request(
                "tools/call", json("{\"name\":\"echo\",\"_meta\":{\"progressToken\":\"tok-1\"}}"))
            .join();

    assertThat(response.path("result").path("content").get(0).path("text").asText())
        .isEqualTo("ok");
    JsonNode first = client.nextOutbound(Duration.ofSeconds(1));
    JsonNode second = client.nextOutbound(Duration.ofSeconds(1));
    assertThat(first.path("method").asText()).isEqualTo("notifications/progress");
    assertThat(first.path("params").path("progressToken").asText()).isEqualTo("tok-1");
    assertThat(first.path("params").path("progress").asDouble()).isEqualTo(1.0);
    assertThat(first.path("params").path("total").asDouble()).isEqualTo(3.0);
    assertThat(first.path("params").path("message").asText()).isEqualTo("one");
    assertThat(second.path("params").path("progress").asDouble()).isEqualTo(2.0);
    assertThat(second.path("params").has("message")).isFalse();
    JsonNode log = client.nextOutbound(Duration.ofSeconds(1));
    assertThat(log.path("method").asText()).isEqualTo("notifications/message");
    assertThat(log.path("params").path("level").asText()).isEqualTo("warning");
    assertThat(client.nextOutbound(Duration.ofMillis(50))).as("debug is below info").isNull();
  }

  @Test
  void progress_withNumberToken_keepsTheNumber() throws InterruptedException {
    client.initialize("2025-11-25");

    client
        .request("tools/call", json("{\"name\":\"echo\",\"_meta\":{\"progressToken\":42}}"))
        .join();

    JsonNode first = client.nextOutbound(Duration.ofSeconds(1));
    assertThat(first.path("params").path("progressToken").isIntegralNumber()).isTrue();
    assertThat(first.path("params").path("progressToken").asInt()).isEqualTo(42);
  }

  @Test
  void progress_withoutToken_sendsNothing() throws InterruptedException {
    client.initialize("2025-11-25");
    client.call(
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"error\"}}");

    client.request("tools/call", json("{\"name\":\"echo\"}")).join();

    assertThat(client.nextOutbound(Duration.ofMillis(100))).isNull();
    assertThat(lastContext.get().progressToken()).isEmpty();
  }

  @Test
  void setLevel_debug_letsDebugLogsThrough() throws InterruptedException {
    client.initialize("2025-11-25");
    JsonNode ok =
        client.call(
            "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"debug\"}}");

    client.request("tools/call", json("{\"name\":\"echo\"}")).join();

    assertThat(ok.path("result").isEmpty()).isTrue();
    assertThat(client.session.logLevel()).isEqualTo(LogLevel.DEBUG);
    JsonNode first = client.nextOutbound(Duration.ofSeconds(1));
    assertThat(first.path("params").path("level").asText()).isEqualTo("debug");
    assertThat(first.path("params").path("logger").asText()).isEqualTo("echo");
  }

  @Test
  void setLevel_unknownLevel_isInvalidParams() {
    client.initialize("2025-11-25");

    JsonNode response =
        client.call(
            "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"loud\"}}");

    assertThat(response.path("error").path("code").asInt()).isEqualTo(-32602);
  }

  @Test
  void cancelledNotification_setsFlagRunsHookAndSuppressesResponse() throws Exception {
    client.initialize("2025-11-25");
    CompletableFuture<JsonNode> pending = client.request("slow/call", json("{}"));
    assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
    RequestContext ctx = lastContext.get();
    CountDownLatch hookRan = new CountDownLatch(1);
    ctx.onCancel(hookRan::countDown);

    client.notify(
        "notifications/cancelled",
        json("{\"requestId\":" + ctx.requestId() + ",\"reason\":\"bored\"}"));

    assertThat(ctx.cancelled()).isTrue();
    assertThat(ctx.cancelReason()).contains("bored");
    assertThat(hookRan.await(1, TimeUnit.SECONDS)).isTrue();
    assertThat(pending.get(1, TimeUnit.SECONDS)).as("no response for a cancelled request").isNull();
  }

  @Test
  void cancelledNotification_forStringIdOfSameDigits_doesNotCancelNumericId() throws Exception {
    client.initialize("2025-11-25");
    client.request("slow/call", json("{}"));
    assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
    RequestContext ctx = lastContext.get();

    client.notify(
        "notifications/cancelled", json("{\"requestId\":\"" + ctx.requestId().asText() + "\"}"));

    assertThat(ctx.cancelled()).isFalse();
  }

  @Test
  void closeSession_cancelsInFlightAndTellsListener() throws Exception {
    client.initialize("2025-11-25");
    client.request("slow/call", json("{}"));
    assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();

    server.closeSession(client.session);

    assertThat(lastContext.get().cancelled()).isTrue();
    assertThat(closed).containsExactly(client.session);
    assertThat(client.session.isClosed()).isTrue();
  }

  @Test
  void sessionNotify_reachesTheSessionChannel() throws InterruptedException {
    client.initialize("2025-11-25");

    client.session.notify("notifications/tools/list_changed", null);

    JsonNode message = client.nextOutbound(Duration.ofSeconds(1));
    assertThat(message.path("method").asText()).isEqualTo("notifications/tools/list_changed");
    assertThat(message.has("id")).isFalse();
  }

  @Test
  void sendRequest_completesWithClientResponse() throws Exception {
    client.initialize("2025-11-25");

    CompletableFuture<JsonNode> answer =
        client.session.sendRequest("roots/list", JsonNodeFactory.instance.objectNode());
    JsonNode sent = client.nextOutbound(Duration.ofSeconds(1));
    client.call(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + sent.path("id")
            + ",\"result\":{\"roots\":[{\"uri\":\"file:///x\"}]}}");

    assertThat(sent.path("method").asText()).isEqualTo("roots/list");
    assertThat(answer.get(1, TimeUnit.SECONDS).path("roots").get(0).path("uri").asText())
        .isEqualTo("file:///x");
  }

  @Test
  void sendRequest_clientError_failsWithMcpException() throws Exception {
    client.initialize("2025-11-25");

    CompletableFuture<JsonNode> answer = client.session.sendRequest("sampling/createMessage", null);
    JsonNode sent = client.nextOutbound(Duration.ofSeconds(1));
    client.call(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + sent.path("id")
            + ",\"error\":{\"code\":-1,\"message\":\"user declined\"}}");

    assertThat(answer)
        .failsWithin(Duration.ofSeconds(1))
        .withThrowableThat()
        .havingRootCause()
        .isInstanceOf(McpException.class)
        .withMessageContaining("user declined");
  }

  @Test
  void sendRequest_noAnswerInTime_failsNamingMethodAndTimeoutAndForgetsIt() throws Exception {
    McpServer quick =
        McpServer.builder(new ServerInfo("test-server", "1.2.3", null))
            .clientRequestTimeout(Duration.ofMillis(300))
            .build();
    InMemoryClient silent = new InMemoryClient(quick);
    silent.initialize("2025-11-25");

    CompletableFuture<JsonNode> answer =
        silent.session.sendRequest("roots/list", JsonNodeFactory.instance.objectNode());
    JsonNode sent = silent.nextOutbound(Duration.ofSeconds(1));
    assertThat(silent.session.pendingServerRequests()).isEqualTo(1);

    assertThat(answer)
        .failsWithin(Duration.ofSeconds(3))
        .withThrowableThat()
        .havingRootCause()
        .isInstanceOf(java.util.concurrent.TimeoutException.class)
        .withMessage("roots/list got no answer within 300 ms from the client");
    JsonNode cancelled = silent.nextOutbound(Duration.ofSeconds(1));
    assertThat(cancelled.path("method").asText()).isEqualTo("notifications/cancelled");
    assertThat(cancelled.path("params").path("requestId")).isEqualTo(sent.path("id"));
    assertThat(silent.session.pendingServerRequests()).isZero();
    // A late answer finds nothing waiting and changes nothing.
    silent.call("{\"jsonrpc\":\"2.0\",\"id\":" + sent.path("id") + ",\"result\":{}}");
    assertThat(silent.session.pendingServerRequests()).isZero();
    quick.close();
  }

  @Test
  void sendRequest_abandonedByItsCaller_isNoLongerPending() throws Exception {
    client.initialize("2025-11-25");

    CompletableFuture<JsonNode> answer = client.session.sendRequest("roots/list", null);
    client.nextOutbound(Duration.ofSeconds(1));
    answer.cancel(false);

    assertThat(client.session.pendingServerRequests()).isZero();
  }

  @Test
  void sessionIds_areDistinctAndLong() {
    McpSession a = server.openSession(m -> {});
    McpSession b = server.openSession(m -> {});

    assertThat(a.id()).isNotEqualTo(b.id()).hasSize(32);
    assertThat(TextNode.valueOf(a.id()).asText()).matches("[0-9a-f]{32}");
  }
}
