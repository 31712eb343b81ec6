package dev.skillport.mcp.transport;

import static dev.skillport.mcp.transport.HttpTestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.skillport.mcp.McpSession;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.eclipse.jetty.server.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class StreamableHttpTransportIT {
  private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":\"ping-1\",\"method\":\"ping\"}";
  private static final String V = "2025-11-25";

  private final List<AutoCloseable> toClose = new ArrayList<>();
  private EchoApplication app;
  private StreamableHttpTransport transport;
  private HttpTestClient client;

  private void start(StreamableHttpTransport.Builder builder) throws Exception {
    transport = builder.build();
    transport.start();
    client = new HttpTestClient(transport.uri());
  }

  private void startDefault() throws Exception {
    app = new EchoApplication();
    start(StreamableHttpTransport.builder(app.server).host("127.0.0.1").port(0));
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable closeable : toClose) {
      closeable.close();
    }
    if (transport != null) {
      transport.close();
    }
    if (app != null) {
      app.server.close();
    }
  }

  @Test
  void initialize_thenPing_answersWithSessionId() throws Exception {
    startDefault();

    HttpResponse<String> init = client.post(String.format(HttpTestClient.INIT, V), Map.of());
    String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    HttpResponse<String> ping = client.post(PING, id);

    assertThat(init.statusCode()).isEqualTo(200);
    assertThat(init.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    assertThat(json(init.body()).path("result").path("protocolVersion").asText()).isEqualTo(V);
    assertThat(ping.statusCode()).isEqualTo(200);
    assertThat(json(ping.body()).path("id").asText()).isEqualTo("ping-1");
    assertThat(json(ping.body()).path("result").isObject()).isTrue();
  }

  @Test
  void twoSessions_getDifferentIds() throws Exception {
    startDefault();

    String first = client.initialize(V);
    String second = client.initialize(V);

    assertThat(first).isNotEqualTo(second).matches("[0-9a-f]{32}");
    assertThat(transport.sessionCount()).isEqualTo(2);
  }

  @Test
  void errorReplies_carryTheRequestsId_wheneverItCouldBeRead() throws Exception {
    startDefault();
    String session = client.initialize(V);

    HttpResponse<String> noSession =
        client.post("{\"jsonrpc\":\"2.0\",\"id\":101,\"method\":\"tools/list\"}", Map.of());
    HttpResponse<String> unknownSession =
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":\"s-2\",\"method\":\"tools/list\"}",
            "0123456789abcdef0123456789abcdef");
    HttpResponse<String> badVersion =
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":103,\"method\":\"tools/list\"}",
            Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", "1999-01-01"));
    HttpResponse<String> unknownMethod =
        client.post("{\"jsonrpc\":\"2.0\",\"id\":104,\"method\":\"no/such\"}", session);

    assertThat(noSession.statusCode()).isEqualTo(400);
    assertThat(json(noSession.body()).path("id").asInt()).isEqualTo(101);
    assertThat(unknownSession.statusCode()).isEqualTo(404);
    assertThat(json(unknownSession.body()).path("id").asText()).isEqualTo("s-2");
    assertThat(badVersion.statusCode()).isEqualTo(400);
    assertThat(json(badVersion.body()).path("id").asInt()).isEqualTo(103);
    assertThat(json(unknownMethod.body()).path("id").asInt()).isEqualTo(104);
    assertThat(json(unknownMethod.body()).path("error").path("code").asInt()).isEqualTo(-32601);
  }

  @Test
  void malformedJson_isParseError() throws Exception {
    startDefault();
    String id = client.initialize(V);

    HttpResponse<String> response = client.post("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"", id);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(json(response.body()).path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(json(response.body()).get("id").isNull()).isTrue();
  }

  @Test
  void tenMegabyteBody_is413_andServerStillAnswers() throws Exception {
    startDefault();
    String id = client.initialize(V);
    byte[] big = new byte[10 * 1024 * 1024];
    java.util.Arrays.fill(big, (byte) 'a');

    HttpResponse<String> tooLarge =
        client.send(
            HttpRequest.newBuilder(client.endpoint)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", id)
                .POST(HttpRequest.BodyPublishers.ofByteArray(big)));
    // Without a Content-Length (chunked), the limit is enforced while reading.
    HttpResponse<String> chunked =
        client.send(
            HttpRequest.newBuilder(client.endpoint)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", id)
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))));
    // A fresh connection: the server may close the one it refused a body on, and what is tested
    // is that the server keeps answering, not that a connection survives an aborted upload.
    HttpResponse<String> ping = new HttpTestClient(transport.uri()).post(PING, id);

    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(chunked.statusCode()).isEqualTo(413);
    assertThat(ping.statusCode()).isEqualTo(200);
    assertThat(json(ping.body()).path("result").isObject()).isTrue();
  }

  @Test
  void thousandRandomMalformedMessages_leaveServerAnswering() throws Exception {
    startDefault();
    String id = client.initialize(V);
    Random random = new Random(20251125L);
    String[] fragments = {
      "{",
      "}",
      "[",
      "]",
      "\"jsonrpc\"",
      ":",
      "\"2.0\"",
      ",",
      "\"id\"",
      "1",
      "null",
      "\"method\"",
      "\"tools/call\"",
      "\"params\"",
      "{\"name\":",
      "\u00e9",
      "\\u0000",
      "true",
      "1e999",
      "-"
    };
    int answeredWithError = 0;

    for (int i = 0; i < 1000; i++) {
      StringBuilder body = new StringBuilder();
      int parts = 1 + random.nextInt(12);
      for (int p = 0; p < parts; p++) {
        body.append(
            random.nextInt(5) == 0
                ? (char) (random.nextInt(0x7e - 0x20) + 0x20)
                : fragments[random.nextInt(fragments.length)]);
      }
      HttpResponse<String> response =
          random.nextBoolean()
              ? client.post(body.toString(), id)
              : client.post(body.toString(), Map.of());
      assertThat(response.statusCode()).as("body %s", body).isBetween(200, 499);
      if (response.statusCode() == 400) {
        answeredWithError++;
      }
    }
    HttpResponse<String> ping = client.post(PING, id);

    assertThat(answeredWithError).isGreaterThan(500);
    assertThat(ping.statusCode()).isEqualTo(200);
    assertThat(json(ping.body()).path("id").asText()).isEqualTo("ping-1");
    assertThat(json(ping.body()).path("result").isObject()).isTrue();
  }

  @Test
  void deletedSession_is404() throws Exception {
    startDefault();
    String id = client.initialize(V);

    HttpResponse<String> delete =
        client.send(HttpRequest.newBuilder(client.endpoint).header("Mcp-Session-Id", id).DELETE());
    HttpResponse<String> after = client.post(PING, id);

    assertThat(delete.statusCode()).isEqualTo(200);
    assertThat(after.statusCode()).isEqualTo(404);
    assertThat(app.sessions).isEmpty();
  }

  @Test
  void missingSessionHeader_is400_unknownSession_is404() throws Exception {
    startDefault();

    assertThat(client.post(PING, Map.of()).statusCode()).isEqualTo(400);
    assertThat(client.post(PING, "0123456789abcdef0123456789abcdef").statusCode()).isEqualTo(404);
  }

  @Test
  void protocolVersionHeader_supportedAccepted_unsupportedIs400() throws Exception {
    startDefault();
    String id = client.initialize(V);

    HttpResponse<String> older =
        client.post(PING, Map.of("Mcp-Session-Id", id, "MCP-Protocol-Version", "2025-03-26"));
    HttpResponse<String> bogus =
        client.post(PING, Map.of("Mcp-Session-Id", id, "MCP-Protocol-Version", "1999-01-01"));

    assertThat(older.statusCode()).isEqualTo(200);
    assertThat(bogus.statusCode()).isEqualTo(400);
  }

  @Test
  void notification_is202WithoutBody() throws Exception {
    startDefault();
    String id = client.initialize(V);

    HttpResponse<String> response =
        client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", id);

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.body()).isEmpty();
  }

  @Test
  void foreignHost_is403() throws Exception {
    startDefault();

    String status =
        rawPost(transport.port(), "evil.example.com", String.format(HttpTestClient.INIT, V));
    String allowed = rawPost(transport.port(), "localhost:" + transport.port(), PING);

    assertThat(status).startsWith("HTTP/1.1 403");
    assertThat(allowed).startsWith("HTTP/1.1 400").as("loopback host passes the guard");
  }

  @Test
  void evilOrigin_is403_loopbackOriginAccepted() throws Exception {
    startDefault();

    HttpResponse<String> evil =
        client.post(
            String.format(HttpTestClient.INIT, V), Map.of("Origin", "http://evil.example.com"));
    HttpResponse<String> local =
        client.post(
            String.format(HttpTestClient.INIT, V),
            Map.of("Origin", "http://127.0.0.1:" + transport.port()));

    assertThat(evil.statusCode()).isEqualTo(403);
    assertThat(local.statusCode()).isEqualTo(200);
  }

  @Test
  void authToken_requiredAsBearerOrApiKey() throws Exception {
    app = new EchoApplication();
    start(StreamableHttpTransport.builder(app.server).port(0).authToken("s3cret-token"));
    String init = String.format(HttpTestClient.INIT, V);

    HttpResponse<String> none = client.post(init, Map.of());
    HttpResponse<String> wrong = client.post(init, Map.of("Authorization", "Bearer s3cret-tokeN"));
    HttpResponse<String> bearer = client.post(init, Map.of("Authorization", "Bearer s3cret-token"));
    HttpResponse<String> apiKey = client.post(init, Map.of("X-API-Key", "s3cret-token"));

    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(bearer.statusCode()).isEqualTo(200);
    assertThat(apiKey.statusCode()).isEqualTo(200);
  }

  @Test
  void nonLoopbackBind_withoutToken_refusesToStart() {
    app = new EchoApplication();
    StreamableHttpTransport open =
        StreamableHttpTransport.builder(app.server).host("0.0.0.0").port(0).build();

    assertThatThrownBy(open::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("token");
  }

  @Test
  void healthAndReadiness_followSetReady() throws Exception {
    startDefault();
    HttpRequest.Builder health = HttpRequest.newBuilder(client.endpoint.resolve("/healthz")).GET();
    HttpRequest.Builder ready = HttpRequest.newBuilder(client.endpoint.resolve("/readyz")).GET();

    HttpResponse<String> healthz = client.send(health);
    int before = client.send(ready).statusCode();
    transport.setReady(true);
    int after = client.send(ready).statusCode();

    assertThat(healthz.statusCode()).isEqualTo(200);
    assertThat(json(healthz.body()).path("status").asText()).isEqualTo("ok");
    assertThat(before).isEqualTo(503);
    assertThat(after).isEqualTo(200);
  }

  @Test
  void get_withoutEventStreamAccept_is406SayingHowToTalkToTheEndpoint() throws Exception {
    startDefault();
    String id = client.initialize(V);

    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(client.endpoint)
                .header("Accept", "application/json")
                .header("Mcp-Session-Id", id)
                .GET());
    HttpResponse<String> plain = client.send(HttpRequest.newBuilder(client.endpoint).GET());

    assertThat(response.statusCode()).isEqualTo(406);
    assertThat(json(response.body()).at("/error/message").asText())
        .contains("POST")
        .contains("Accept: text/event-stream");
    assertThat(plain.statusCode()).isEqualTo(406);
  }

  @Test
  void otherPaths_withoutRoutes_get404() throws Exception {
    startDefault();

    HttpResponse<String> root =
        client.send(HttpRequest.newBuilder(client.endpoint.resolve("/")).GET());

    assertThat(root.statusCode()).isEqualTo(404);
  }

  @Test
  void routes_serveTheirPaths_afterHostCheck_withTheEndpointsTokens() throws Exception {
    app = new EchoApplication();
    List<String> seen = new ArrayList<>();
    HttpRoutes routes =
        (request, response, callback, credentials) -> {
          String path = Request.getPathInContext(request);
          seen.add(path);
          if (path.equals("/boom")) {
            throw new IllegalStateException("route failure");
          }
          if (!path.equals("/page")) {
            return false;
          }
          String body =
              credentials.required()
                  + " "
                  + credentials.presentedBy(request)
                  + " "
                  + credentials.accepts("s3cret-token")
                  + " "
                  + credentials.accepts("s3cret-tokeN");
          response.setStatus(200);
          response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
          return true;
        };
    start(
        StreamableHttpTransport.builder(app.server)
            .port(0)
            .authToken("s3cret-token")
            .routes(routes));

    HttpResponse<String> anonymous =
        client.send(HttpRequest.newBuilder(client.endpoint.resolve("/page")).GET());
    HttpResponse<String> withToken =
        client.send(
            HttpRequest.newBuilder(client.endpoint.resolve("/page"))
                .header("Authorization", "Bearer s3cret-token")
                .GET());
    HttpResponse<String> unknown =
        client.send(HttpRequest.newBuilder(client.endpoint.resolve("/nothing-here")).GET());
    HttpResponse<String> failing =
        client.send(HttpRequest.newBuilder(client.endpoint.resolve("/boom")).GET());
    HttpResponse<String> foreign =
        client.send(
            HttpRequest.newBuilder(client.endpoint.resolve("/page"))
                .header("Origin", "https://evil.example")
                .GET());
    HttpResponse<String> probe =
        client.send(HttpRequest.newBuilder(client.endpoint.resolve("/healthz")).GET());

    assertThat(anonymous.body()).isEqualTo("true false true false");
    assertThat(withToken.body()).isEqualTo("true true true false");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(failing.statusCode()).isEqualTo(500);
    assertThat(foreign.statusCode()).isEqualTo(403);
    assertThat(probe.statusCode()).isEqualTo(200);
    assertThat(seen).containsExactly("/page", "/page", "/nothing-here", "/boom");
  }

  @Test
  void getStream_receivesSessionNotification() throws Exception {
    startDefault();
    String id = client.initialize(V);
    McpSession session =
        app.sessions.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
    HttpTestClient.EventStream stream = client.openStream(id);
    toClose.add(stream);

    session.notify("notifications/tools/list_changed", null);

    assertThat(stream.response.statusCode()).isEqualTo(200);
    assertThat(stream.response.headers().firstValue("Content-Type")).contains("text/event-stream");
    JsonNode message = stream.nextMessage(Duration.ofSeconds(5));
    assertThat(message).isNotNull();
    assertThat(message.path("method").asText()).isEqualTo("notifications/tools/list_changed");
  }

  @Test
  void notificationSentBeforeStreamOpens_isDeliveredWhenItOpens() throws Exception {
    startDefault();
    String id = client.initialize(V);
    McpSession session =
        app.sessions.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();

    session.notify("notifications/tools/list_changed", null);
    HttpTestClient.EventStream stream = client.openStream(id);
    toClose.add(stream);

    JsonNode message = stream.nextMessage(Duration.ofSeconds(5));
    assertThat(message).isNotNull();
    assertThat(message.path("method").asText()).isEqualTo("notifications/tools/list_changed");
  }

  @Test
  void getStreams_beyondCap_are429() throws Exception {
    app = new EchoApplication();
    start(StreamableHttpTransport.builder(app.server).port(0).maxStreamsPerSession(1));
    String id = client.initialize(V);
    toClose.add(client.openStream(id));

    HttpResponse<String> second =
        client.send(
            HttpRequest.newBuilder(client.endpoint)
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", id)
                .GET());

    assertThat(second.statusCode()).isEqualTo(429);
  }

  @Test
  void toolCall_withProgressTokenAndSseAccept_streamsProgressThenResult() throws Exception {
    startDefault();
    String id = client.initialize(V);

    HttpResponse<String> response =
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"text\":\"hi\"},\"_meta\":{\"progressToken\":7}}}",
            id);

    assertThat(response.headers().firstValue("Content-Type")).contains("text/event-stream");
    List<JsonNode> messages = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      if (line.startsWith("id: ")) {
        ids.add(line.substring(4));
      }
      if (line.startsWith("data: ") && line.length() > 6) {
        messages.add(json(line.substring(6)));
      }
    }
    assertThat(messages)
        .extracting(m -> m.path("method").asText())
        .containsExactly(
            "notifications/progress", "notifications/message", "notifications/progress", "");
    assertThat(messages.get(0).path("params").path("progressToken").asInt()).isEqualTo(7);
    assertThat(messages.get(3).path("result").path("content").get(0).path("text").asText())
        .isEqualTo("hi");
    assertThat(ids).doesNotHaveDuplicates().hasSize(5);
  }

  @Test
  void post_acceptWithoutEventStreamOrContentTypeNotJson_isRefusedWithJsonRpcError()
      throws Exception {
    startDefault();
    String id = client.initialize(V);
    String call =
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
            + "\"arguments\":{\"text\":\"hi\"}}}";

    HttpResponse<String> jsonOnly =
        client.post(call, Map.of("Mcp-Session-Id", id, "Accept", "application/json"));
    HttpResponse<String> plainText =
        client.post(call, Map.of("Mcp-Session-Id", id, "Content-Type", "text/plain"));
    HttpResponse<String> wildcard =
        client.post(call, Map.of("Mcp-Session-Id", id, "Accept", "*/*"));

    assertThat(jsonOnly.statusCode()).isEqualTo(406);
    assertThat(json(jsonOnly.body()).path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(plainText.statusCode()).isEqualTo(415);
    assertThat(json(plainText.body()).path("error").path("message").asText())
        .contains("application/json");
    assertThat(wildcard.statusCode()).isEqualTo(200);
  }

  @Test
  void idleSession_expiresAfterTimeout() throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    app = new EchoApplication(clock);
    start(
        StreamableHttpTransport.builder(app.server)
            .port(0)
            .clock(clock)
            .sessionIdleTimeout(Duration.ofMinutes(10)));
    String id = client.initialize(V);

    clock.advance(Duration.ofMinutes(9));
    transport.sweep();
    int beforeTimeout = client.post(PING, id).statusCode();
    clock.advance(Duration.ofMinutes(11));
    transport.sweep();
    int afterTimeout = client.post(PING, id).statusCode();

    assertThat(beforeTimeout).isEqualTo(200);
    assertThat(afterTimeout).isEqualTo(404);
    await().atMost(Duration.ofSeconds(2)).until(() -> app.sessions.isEmpty());
  }

  @Test
  void sessionCap_newSessionEndsTheLeastRecentlyUsedIdleOne() throws Exception {
    app = new EchoApplication();
    start(StreamableHttpTransport.builder(app.server).port(0).maxSessions(2));
    String first = client.initialize(V);
    String second = client.initialize(V);
    client.post(PING, second);

    String third = client.initialize(V);

    assertThat(third).isNotNull();
    assertThat(client.post(PING, first).statusCode()).isEqualTo(404);
    assertThat(client.post(PING, second).statusCode()).isEqualTo(200);
    assertThat(client.post(PING, third).statusCode()).isEqualTo(200);
    assertThat(transport.sessionCount()).isEqualTo(2);
  }

  @Test
  void sessionCap_everySessionStreaming_refusesFurtherInitializeWith503() throws Exception {
    app = new EchoApplication();
    start(StreamableHttpTransport.builder(app.server).port(0).maxSessions(2));
    for (int i = 0; i < 2; i++) {
      String id = client.initialize(V);
      client.openStream(id);
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> transport.handler().sessionCount() == 2);

    HttpResponse<String> third = client.post(String.format(HttpTestClient.INIT, V), Map.of());

    assertThat(third.statusCode()).isEqualTo(503);
    assertThat(json(third.body()).path("error").path("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void batch_on2025_03_26Session_answersArray() throws Exception {
    startDefault();
    String id = client.initialize("2025-03-26");

    HttpResponse<String> response =
        client.post(
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}]",
            id);

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = json(response.body());
    assertThat(body.isArray()).isTrue();
    assertThat(body).hasSize(2);
    assertThat(body.get(1).path("result").path("tools").get(0).path("name").asText())
        .isEqualTo("echo");
  }

  private static String rawPost(int port, String host, String body) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String head =
          "POST /mcp HTTP/1.1\r\nHost: "
              + host
              + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
              + "Content-Length: "
              + bytes.length
              + "\r\nConnection: close\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      BufferedReader reader =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      return reader.readLine();
    }
  }

  /** A clock tests move by hand. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
      this.now = start;
    }

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
