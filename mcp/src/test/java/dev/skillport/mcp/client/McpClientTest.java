package dev.skillport.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.client.McpClientException.Kind;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client against a scripted peer on in-memory pipes: what it writes, and what it survives. */
class McpClientTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final BlockingQueue<JsonNode> sent = new LinkedBlockingQueue<>();
  private final List<String> notifications = new CopyOnWriteArrayList<>();
  private final List<String> malformed = new CopyOnWriteArrayList<>();
  private final BlockingQueue<McpClientException> closed = new LinkedBlockingQueue<>();
  private OutputStream toClient;
  private McpClient client;

  /**
   * Writes every line of the scripted server. A pipe's reader fails once the thread that last wrote
   * to it has ended, so the writes come from one thread that lives as long as the test.
   */
  private final ExecutorService serverWriter =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "scripted-server-writer");
            t.setDaemon(true);
            return t;
          });

  private McpClient open(McpClient.Options options) throws IOException {
    PipedInputStream fromServer = new PipedInputStream(1 << 16);
    toClient = new PipedOutputStream(fromServer);
    PipedInputStream clientWrites = new PipedInputStream(1 << 16);
    PipedOutputStream toServer = new PipedOutputStream(clientWrites);
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(clientWrites, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  sent.add(JSON.readTree(line));
                }
              } catch (IOException e) {
                // the client closed its end
              }
            });
    reader.setDaemon(true);
    reader.start();
    client =
        McpClient.open(
            fromServer,
            toServer,
            options,
            new McpClient.Listener() {
              @Override
              public void notification(String method, JsonNode params) {
                notifications.add(method);
              }

              @Override
              public void malformed(String excerpt) {
                malformed.add(excerpt);
              }

              @Override
              public void closed(McpClientException why) {
                closed.add(why);
              }
            });
    return client;
  }

  private McpClient open() throws IOException {
    return open(McpClient.Options.defaults("test", "1").withProbeTimeout(Duration.ofSeconds(2)));
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    serverWriter.shutdownNow();
  }

  private void reply(String line) throws IOException {
    try {
      serverWriter
          .submit(
              () -> {
                toClient.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                toClient.flush();
                return null;
              })
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new IOException("the scripted server could not write", e);
    }
  }

  private JsonNode next() throws InterruptedException {
    JsonNode m = sent.poll(5, TimeUnit.SECONDS);
    assertThat(m).as("a message from the client").isNotNull();
    return m;
  }

  private void answer(JsonNode request, String result) throws IOException {
    reply("{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":" + result + "}");
  }

  @Test
  void initialize_legacyServerRejectsTheProbe_fallsBackToTheHandshake() throws Exception {
    open();
    Thread server =
        new Thread(
            () -> {
              try {
                JsonNode probe = next();
                assertThat(probe.path("method").asText()).isEqualTo("server/discover");
                assertThat(
                        probe
                            .path("params")
                            .path("_meta")
                            .path("io.modelcontextprotocol/protocolVersion")
                            .asText())
                    .isEqualTo("2026-07-28");
                reply(
                    "{\"jsonrpc\":\"2.0\",\"id\":"
                        + probe.get("id")
                        + ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
                JsonNode init = next();
                assertThat(init.path("method").asText()).isEqualTo("initialize");
                assertThat(init.path("params").path("protocolVersion").asText())
                    .isEqualTo("2025-11-25");
                answer(
                    init,
                    "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":"
                        + "{\"listChanged\":true}},\"serverInfo\":{\"name\":\"fake\",\"version\":\"9\"}}");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    server.start();

    McpClient.Handshake hs = client.initialize(null, Duration.ofSeconds(5));

    assertThat(hs.era()).isEqualTo(McpClient.Era.LEGACY);
    assertThat(hs.protocolVersion()).isEqualTo("2025-06-18");
    assertThat(hs.announcesListChanges("tools")).isTrue();
    assertThat(hs.serverName()).isEqualTo("fake");
    assertThat(next().path("method").asText()).isEqualTo("notifications/initialized");
  }

  @Test
  void initialize_modernServer_everyRequestCarriesItsMetadata() throws Exception {
    open();
    Thread server =
        new Thread(
            () -> {
              try {
                JsonNode probe = next();
                answer(
                    probe,
                    "{\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"],"
                        + "\"capabilities\":{\"tools\":{}},\"_meta\":{"
                        + "\"io.modelcontextprotocol/serverInfo\":{\"name\":\"modern\",\"version\":\"2\"}}}");
                JsonNode list = next();
                assertThat(list.path("method").asText()).isEqualTo("tools/list");
                assertThat(
                        list.path("params").path("_meta").has("io.modelcontextprotocol/clientInfo"))
                    .isTrue();
                answer(list, "{\"resultType\":\"complete\",\"tools\":[]}");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    server.start();

    McpClient.Handshake hs = client.initialize(null, Duration.ofSeconds(5));
    JsonNode tools =
        client.request("tools/list", JSON.createObjectNode(), Duration.ofSeconds(5), null).await();

    assertThat(hs.era()).isEqualTo(McpClient.Era.MODERN);
    assertThat(hs.serverName()).isEqualTo("modern");
    assertThat(tools.path("tools").isArray()).isTrue();
  }

  @Test
  void initialize_serverThatNeverAnswers_timesOutClearly() throws Exception {
    open(McpClient.Options.defaults("test", "1").withProbeTimeout(Duration.ofMillis(200)));

    assertThatThrownBy(() -> client.initialize(null, Duration.ofMillis(800)))
        .isInstanceOfSatisfying(
            McpClientException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
              assertThat(e.getMessage()).contains("did not answer initialize within 800 ms");
            });
  }

  @Test
  void request_progressReachesItsSink_andCancelTellsTheServer() throws Exception {
    open();
    List<Double> progress = new CopyOnWriteArrayList<>();
    McpClient.Call call =
        client.request(
            "tools/call",
            JSON.createObjectNode().put("name", "slow"),
            Duration.ofSeconds(30),
            (p, total, message) -> progress.add(p));
    JsonNode request = next();
    String token = request.path("params").path("_meta").path("progressToken").asText();
    reply(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\""
            + token
            + "\",\"progress\":1,\"total\":5}}");
    reply(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"other\",\"progress\":3}}");
    reply("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
    long deadline = System.currentTimeMillis() + 5000;
    while ((progress.isEmpty() || notifications.isEmpty())
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
    }

    call.cancel("the caller gave up");

    JsonNode cancelled = next();
    assertThat(progress).containsExactly(1.0);
    assertThat(notifications).containsExactly("notifications/tools/list_changed");
    assertThat(cancelled.path("method").asText()).isEqualTo("notifications/cancelled");
    assertThat(cancelled.path("params").path("requestId").asLong()).isEqualTo(call.id());
    assertThatThrownBy(call::await)
        .isInstanceOfSatisfying(
            McpClientException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CANCELLED));
    // A late answer to the cancelled request is dropped quietly.
    answer(request, "{\"content\":[]}");
    assertThat(client.isOpen()).isTrue();
  }

  @Test
  void request_timeout_failsAndSendsCancelled() throws Exception {
    open();
    McpClient.Call call =
        client.request("tools/call", JSON.createObjectNode(), Duration.ofMillis(300), null);
    next();
    assertThatThrownBy(call::await)
        .isInstanceOfSatisfying(
            McpClientException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT));
    assertThat(next().path("method").asText()).isEqualTo("notifications/cancelled");
  }

  @Test
  void serverRequests_pingAnswered_samplingRefused() throws Exception {
    open();
    reply("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}");
    reply(
        "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"method\":\"sampling/createMessage\",\"params\":{}}");
    JsonNode pong = next();
    JsonNode refused = next();
    assertThat(pong.path("id").asText()).isEqualTo("s1");
    assertThat(pong.has("result")).isTrue();
    assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32601);
  }

  @Test
  void malformedLines_pastTheLimit_reportedAsSoEvenWhenTheServerExitsAsItsOutputCloses()
      throws Exception {
    // A server process flooding its stdout dies on the broken pipe the moment the client stops
    // reading, and its exit closes the client: the reason given must still be the flood.
    AtomicReference<McpClient> opened = new AtomicReference<>();
    InputStream flood =
        new ByteArrayInputStream("junk\n".repeat(10).getBytes(StandardCharsets.UTF_8)) {
          @Override
          public void close() {
            opened.get().close();
          }
        };
    BlockingQueue<McpClientException> ended = new LinkedBlockingQueue<>();
    CountDownLatch requested = new CountDownLatch(1);
    InputStream gated =
        new FilterInputStream(flood) {
          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            try {
              requested.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IOException(e);
            }
            return super.read(b, off, len);
          }
        };
    McpClient flooded =
        McpClient.open(
            gated,
            OutputStream.nullOutputStream(),
            new McpClient.Options("test", "1", Duration.ZERO, 1 << 20, 3),
            new McpClient.Listener() {
              @Override
              public void notification(String method, JsonNode params) {}

              @Override
              public void closed(McpClientException why) {
                ended.add(why);
              }
            });
    opened.set(flooded);
    McpClient.Call call =
        flooded.request("x", JSON.createObjectNode(), Duration.ofSeconds(30), null);
    requested.countDown();

    McpClientException why = ended.poll(5, TimeUnit.SECONDS);
    assertThat(why).isNotNull();
    assertThat(why.kind()).isEqualTo(Kind.PROTOCOL);
    assertThat(why.getMessage()).contains("4 lines in a row that are not JSON-RPC");
    assertThatThrownBy(call::await)
        .isInstanceOfSatisfying(
            McpClientException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PROTOCOL));
  }

  @Test
  void malformedLines_toleratedUpToTheLimit_thenTheConnectionEnds() throws Exception {
    open(new McpClient.Options("test", "1", Duration.ZERO, 1 << 20, 3));
    McpClient.Call call =
        client.request("x", JSON.createObjectNode(), Duration.ofSeconds(30), null);
    reply("hello from console.log");
    reply("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}");
    for (int i = 0; i < 4; i++) {
      reply("not json " + i);
    }
    McpClientException why = closed.poll(5, TimeUnit.SECONDS);
    assertThat(why).isNotNull();
    assertThat(why.kind()).isEqualTo(Kind.PROTOCOL);
    assertThat(why.getMessage()).contains("4 lines in a row that are not JSON-RPC");
    assertThat(malformed).hasSize(5).first().asString().isEqualTo("hello from console.log");
    assertThatThrownBy(call::await)
        .isInstanceOfSatisfying(
            McpClientException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PROTOCOL));
  }

  @Test
  void unreadableAnswers_failTheirRequestsAtOnce_andTheConnectionStays() throws Exception {
    open();
    McpClient.Call deep =
        client.request("tools/list", JSON.createObjectNode(), Duration.ofSeconds(120), null);
    McpClient.Call broken =
        client.request("tools/call", JSON.createObjectNode(), Duration.ofSeconds(120), null);
    McpClient.Call later =
        client.request("ping", JSON.createObjectNode(), Duration.ofSeconds(120), null);
    JsonNode first = next();
    JsonNode second = next();
    JsonNode third = next();
    // A notification that cannot be read fails nothing.
    reply("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"id\":" + first.get("id"));
    reply(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + first.get("id")
            + ",\"result\":{\"tools\":"
            + "[".repeat(5000)
            + "]".repeat(5000)
            + "}}");
    reply("{\"jsonrpc\":\"2.0\",\"id\":" + second.get("id") + ",\"result\":");

    assertThatThrownBy(deep::await)
        .isInstanceOfSatisfying(
            McpClientException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(Kind.PROTOCOL);
              assertThat(e.getMessage())
                  .contains("answer to request " + first.get("id") + " could not be read")
                  .contains("nesting depth");
            });
    assertThatThrownBy(broken::await)
        .isInstanceOfSatisfying(
            McpClientException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(Kind.PROTOCOL);
              assertThat(e.getMessage())
                  .contains("answer to request " + second.get("id") + " could not be read");
            });
    answer(third, "{}");
    assertThat(later.await().isObject()).isTrue();
    assertThat(client.isOpen()).isTrue();
    assertThat(malformed).hasSize(3);
  }

  @Test
  void oversizedMessage_endsTheConnectionWithoutHoldingIt() throws Exception {
    open(new McpClient.Options("test", "1", Duration.ZERO, 4096, 3));
    McpClient.Call call =
        client.request("x", JSON.createObjectNode(), Duration.ofSeconds(30), null);
    ObjectNode big = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1);
    big.putObject("result").put("text", "x".repeat(10_000));
    Thread writer =
        new Thread(
            () -> {
              try {
                reply(big.toString());
              } catch (IOException e) {
                // the client stopped reading
              }
            });
    writer.setDaemon(true);
    writer.start();
    McpClientException why = closed.poll(5, TimeUnit.SECONDS);
    assertThat(why).isNotNull();
    assertThat(why.getMessage()).contains("longer than 4096 bytes");
    assertThatThrownBy(call::await).isInstanceOf(McpClientException.class);
    assertThat(client.isOpen()).isFalse();
  }
}
