package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the endpoint does with clients that break the rules of HTTP rather than of MCP, driven over
 * raw sockets: oversized headers and unparsable requests get JSON-RPC errors, a connection
 * trickling its headers is closed at the header deadline, a flood of idle connections makes room
 * for a new client, a body that is not UTF-8 is a parse error, and a request refused from its
 * headers alone leaves its connection usable once its body has arrived.
 */
@Timeout(60)
class TransportLimitsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String V = "2025-11-25";

  private final List<Socket> sockets = new ArrayList<>();
  private EchoApplication app;
  private StreamableHttpTransport transport;

  private void start(StreamableHttpTransport.Builder builder) throws Exception {
    transport = builder.build();
    transport.start();
  }

  private StreamableHttpTransport.Builder builder() {
    app = new EchoApplication();
    return StreamableHttpTransport.builder(app.server).host("127.0.0.1").port(0);
  }

  @AfterEach
  void tearDown() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    if (transport != null) {
      transport.close();
    }
    if (app != null) {
      app.server.close();
    }
  }

  @Test
  void oversizedHeader_is431WithAJsonRpcError() throws Exception {
    start(builder());

    Response r =
        exchange(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
                + "a".repeat(20_000)
                + "\r\nContent-Length: 2\r\n\r\n{}");

    assertThat(r.status()).isEqualTo(431);
    assertThat(r.head()).containsIgnoringCase("Content-Type: application/json");
    assertThat(r.json().path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(r.body()).doesNotContain("<html").doesNotContain("aaaa");
  }

  @Test
  void unparsableRequest_is400WithAJsonRpcError() throws Exception {
    start(builder());

    Response r = exchange("GARBAGE\r\n\r\n");

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(r.body()).doesNotContain("<html");
  }

  @Test
  void overlongUtf8Body_isAParseError() throws Exception {
    start(builder());
    // "/" written as the overlong pair C0 AF, which a lenient decoder turns into a slash.
    byte[] body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"a\u0000b\",\"version\":\"1\"}}}"
            .replace("\u0000", "\u00c0\u00af")
            .getBytes(StandardCharsets.ISO_8859_1);

    Response r = post(body);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(transport.sessionCount()).isZero();
  }

  @Test
  void tricklingHeaders_closedAtTheHeaderDeadline() throws Exception {
    start(builder().headerTimeout(Duration.ofSeconds(1)));
    Socket s = socket();
    OutputStream out = s.getOutputStream();
    out.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
    long start = System.nanoTime();

    boolean closed = false;
    for (int i = 0; i < 40 && !closed; i++) {
      // A byte every 100 ms: Jetty's idle timeout would restart on each one.
      try {
        out.write('X');
        out.flush();
        s.setSoTimeout(100);
        closed = s.getInputStream().read() < 0;
      } catch (SocketTimeoutException e) {
        // still open
      } catch (IOException e) {
        closed = true;
      }
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(closed).as("closed by the server").isTrue();
    assertThat(took).isBetween(Duration.ofMillis(900), Duration.ofMillis(3000));
  }

  @Test
  void keepAliveConnection_restingPastTheHeaderDeadline_servesItsNextRequest() throws Exception {
    start(builder().headerTimeout(Duration.ofMillis(500)));
    Socket s = socket();
    String ping =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s";
    String body = String.format(HttpTestClient.INIT, V);

    s.getOutputStream()
        .write(String.format(ping, body.length(), body).getBytes(StandardCharsets.UTF_8));
    Response first = Response.readOne(s.getInputStream());
    // Pooled clients reuse a connection after any pause; the guard sweeps several times meanwhile.
    Thread.sleep(1_500);
    s.getOutputStream()
        .write(String.format(ping, body.length(), body).getBytes(StandardCharsets.UTF_8));
    Response second = Response.readOne(s.getInputStream());

    assertThat(first.status()).isEqualTo(200);
    assertThat(second.status()).isEqualTo(200);
    assertThat(second.json().path("result").path("protocolVersion").asText()).isEqualTo(V);
  }

  @Test
  void refusedBeforeItsBodyArrived_theConnectionServesTheNextRequest() throws Exception {
    start(builder());
    String body = String.format(HttpTestClient.INIT, V);
    String head =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: %s\r\n"
            + "Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n";
    Socket s = socket();
    OutputStream out = s.getOutputStream();

    // The refusal (wrong Content-Type) is answered from the headers alone, before the body is sent.
    out.write(String.format(head, "text/plain", body.length()).getBytes(StandardCharsets.UTF_8));
    out.flush();
    Response refused = Response.readOne(s.getInputStream());
    // The server has finished with the refused request by now, its body still unsent.
    Thread.sleep(300);
    out.write(body.getBytes(StandardCharsets.UTF_8));
    out.write(
        (String.format(head, "application/json", body.length()) + body)
            .getBytes(StandardCharsets.UTF_8));
    out.flush();
    Response next = Response.readOne(s.getInputStream());

    assertThat(refused.status()).isEqualTo(415);
    assertThat(refused.head()).doesNotContainIgnoringCase("Connection: close");
    assertThat(next.status()).isEqualTo(200);
    assertThat(next.json().path("result").path("protocolVersion").asText()).isEqualTo(V);
  }

  @Test
  void connectionCap_idleConnectionsMakeRoomForANewClient() throws Exception {
    start(builder().maxConnections(20));
    for (int i = 0; i < 40; i++) {
      Socket idle = socket();
      idle.getOutputStream().write("POST /mcp HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    // The server has taken them and read what each sent: each has shown it is slow.
    waitForConnections(20);

    HttpTestClient client = new HttpTestClient(transport.uri());
    long start = System.nanoTime();
    var init = client.post(String.format(HttpTestClient.INIT, V), Map.of());
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(init.statusCode()).isEqualTo(200);
    assertThat(took).isLessThan(Duration.ofSeconds(1));
    // Each connection past the cap is counted for a moment before one is closed for it.
    long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    while (transport.connectionCount() > 20 && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    assertThat(transport.connectionCount()).isLessThanOrEqualTo(20);
  }

  @Test
  void connectionCap_everyConnectionBusy_newcomerGets503WithRetryAfter() throws Exception {
    start(builder().maxConnections(2));
    for (int i = 0; i < 2; i++) {
      holdARequest(socket());
    }
    // Both requests are being handled (their bodies are awaited): neither can make room.
    waitForConnections(2);

    Response r = post(String.format(HttpTestClient.INIT, V).getBytes(StandardCharsets.UTF_8));

    assertThat(r.status()).isEqualTo(503);
    assertThat(r.head()).containsIgnoringCase("Retry-After: 2");
    assertThat(r.json().path("error").path("code").asInt()).isEqualTo(-32603);
  }

  @Test
  void requestLimit_pastItAndTheWait_is503WithRetryAfter() throws Exception {
    start(builder().maxRequests(1));
    holdARequest(socket());
    waitForConnections(1);
    long start = System.nanoTime();

    Response r = post(String.format(HttpTestClient.INIT, V).getBytes(StandardCharsets.UTF_8));
    Duration waited = Duration.ofNanos(System.nanoTime() - start);

    assertThat(r.status()).isEqualTo(503);
    assertThat(r.head()).containsIgnoringCase("Retry-After: 2");
    assertThat(waited)
        .as("it waited for room first")
        .isGreaterThanOrEqualTo(StreamableHttpTransport.MAX_REQUEST_WAIT.minusMillis(100));
  }

  @Test
  void requestLimit_roomFreedWhileWaiting_isServed() throws Exception {
    start(builder().maxRequests(1));
    Socket held = socket();
    String body = holdARequest(held);
    waitForConnections(1);
    Thread.sleep(200);
    Thread finisher =
        new Thread(
            () -> {
              try {
                Thread.sleep(500);
                held.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
                held.getOutputStream().flush();
              } catch (IOException | InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    finisher.start();

    Response r = post(String.format(HttpTestClient.INIT, V).getBytes(StandardCharsets.UTF_8));
    finisher.join();

    assertThat(r.status()).isEqualTo(200);
  }

  /** Sends a POST's headers but not its body, so the request stays in progress; its body. */
  private static String holdARequest(Socket s) throws IOException {
    String body = String.format(HttpTestClient.INIT, V);
    s.getOutputStream()
        .write(
            ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nContent-Length: "
                    + body.length()
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return body;
  }

  private void waitForConnections(int n) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (transport.connectionCount() < n && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    // The server has the headers; give it a moment to start handling them.
    Thread.sleep(200);
  }

  private Socket socket() throws IOException {
    Socket s = new Socket("127.0.0.1", transport.port());
    sockets.add(s);
    return s;
  }

  private Response post(byte[] body) throws IOException {
    String head =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Accept: application/json, text/event-stream\r\nConnection: close\r\n"
            + "Content-Length: "
            + body.length
            + "\r\n\r\n";
    Socket s = socket();
    OutputStream out = s.getOutputStream();
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
    return Response.read(s.getInputStream());
  }

  private Response exchange(String request) throws IOException {
    Socket s = socket();
    s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return Response.read(s.getInputStream());
  }

  /** A response read until the server closes the connection or its declared length is in. */
  record Response(int status, String head, String body) {
    static Response read(InputStream in) throws IOException {
      byte[] all = in.readNBytes(1 << 20);
      String text = new String(all, StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String head = split < 0 ? text : text.substring(0, split);
      String body = split < 0 ? "" : text.substring(split + 4);
      int status = Integer.parseInt(head.substring(9, 12));
      return new Response(status, head, body);
    }

    /** One response of a kept-alive connection, framed by its Content-Length. */
    static Response readOne(InputStream in) throws IOException {
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("closed by the server after " + head.length() + " header bytes");
        }
        head.append((char) b);
      }
      int length = -1;
      for (String line : head.toString().split("\r\n")) {
        if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
          length = Integer.parseInt(line.substring(15).strip());
        }
      }
      assertThat(length).as("Content-Length in " + head).isNotNegative();
      String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
      return new Response(Integer.parseInt(head.substring(9, 12)), head.toString().strip(), body);
    }

    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }
}
