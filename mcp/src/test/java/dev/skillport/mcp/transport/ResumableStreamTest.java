package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.mcp.LogLevel;
import dev.skillport.mcp.McpServer;
import dev.skillport.mcp.McpSession;
import dev.skillport.mcp.RequestContext;
import dev.skillport.mcp.ServerInfo;
import dev.skillport.mcp.SessionListener;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Event replay after {@code Last-Event-ID}, on GET streams and on POST streams closed mid-call. */
class ResumableStreamTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\"}}";

  private final List<McpSession> sessions = new CopyOnWriteArrayList<>();
  private McpServer server;
  private StreamableHttpTransport transport;
  private HttpTestClient client;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeEach
  void start() throws Exception {
    server =
        McpServer.builder(new ServerInfo("replay-test", "1", null))
            .workerThreads(2)
            .capabilities(() -> JSON.createObjectNode().set("tools", JSON.createObjectNode()))
            .handler("tools/call", this::call)
            .sessionListener(
                new SessionListener() {
                  @Override
                  public void sessionOpened(McpSession session) {
                    sessions.add(session);
                  }

                  @Override
                  public void sessionClosed(McpSession session) {
                    sessions.remove(session);
                  }
                })
            .build();
    transport = StreamableHttpTransport.builder(server).port(0).maxReplayedEvents(16).build();
    transport.start();
    client = new HttpTestClient(transport.uri());
  }

  @AfterEach
  void stop() {
    transport.close();
    server.close();
  }

  /** Logs "before", closes its stream when asked to, logs "after 1" and "after 2", answers. */
  private JsonNode call(RequestContext ctx, JsonNode params) {
    ctx.log(LogLevel.INFO, "t", "before");
    boolean closed =
        params.path("name").asText().equals("reconnect")
            && ctx.session()
                .orElseThrow()
                .attribute(RequestStreams.ATTRIBUTE, RequestStreams.class)
                .orElseThrow()
                .closeStream(ctx.requestId());
    ctx.log(LogLevel.INFO, "t", "after 1");
    ctx.log(LogLevel.INFO, "t", "after 2");
    ObjectNode result = JSON.createObjectNode();
    result.putArray("content").addObject().put("type", "text").put("text", "closed=" + closed);
    return result;
  }

  @Test
  void getWithLastEventId_afterGetStreamDropped_replaysExactlyTheMissedEvents() throws Exception {
    String sessionId = client.initialize("2025-11-25");
    McpSession session = sessions.get(0);
    HttpResponse<InputStream> first = openGet(sessionId, null);
    session.notify("n/1", null);
    session.notify("n/2", null);
    session.notify("n/3", null);
    List<Event> seen = readEvents(first, 4);
    first.body().close();
    assertThat(seen).extracting(Event::method).containsExactly("", "n/1", "n/2", "n/3");

    HttpResponse<InputStream> resumed = openGet(sessionId, seen.get(1).id());
    session.notify("n/4", null);
    List<Event> replayed = readEvents(resumed, 4);
    resumed.body().close();

    assertThat(replayed).extracting(Event::method).containsExactly("", "n/2", "n/3", "n/4");
    assertThat(replayed.get(1).id()).isEqualTo(seen.get(2).id());
    assertThat(replayed.get(2).id()).isEqualTo(seen.get(3).id());
  }

  @Test
  void getWithLastEventId_afterPostStreamClosedMidCall_deliversTheRestAndTheResult()
      throws Exception {
    String sessionId = client.initialize("2025-11-25");

    HttpResponse<String> post = client.post(String.format(CALL, "reconnect"), sessionId);
    List<Event> onPost = parse(post.body());
    assertThat(post.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    assertThat(onPost).extracting(Event::method).containsExactly("", "notifications/message");
    assertThat(post.body()).contains("retry: 1000");

    HttpResponse<InputStream> resumed = openGet(sessionId, onPost.get(1).id());
    BufferedReader reader = reader(resumed);
    List<Event> rest = readEvents(reader, 3);

    assertThat(rest)
        .extracting(e -> e.data().path("params").path("data").asText(""))
        .containsExactly("after 1", "after 2", "");
    assertThat(rest.get(2).data().path("id").asInt()).isEqualTo(7);
    assertThat(rest.get(2).data().path("result").path("content").get(0).path("text").asText())
        .isEqualTo("closed=true");
    assertThat(reader.readLine()).as("the resumed stream ends with the result").isNull();
  }

  @Test
  void closeStream_olderRevisionWithoutPriming_isRefusedAndTheCallAnswersNormally()
      throws Exception {
    String sessionId = client.initialize("2025-06-18");

    HttpResponse<String> post = client.post(String.format(CALL, "reconnect"), sessionId);

    assertThat(post.body()).contains("closed=false").doesNotContain("retry:");
  }

  @Test
  void getWithUnknownLastEventId_opensAPlainStream() throws Exception {
    String sessionId = client.initialize("2025-11-25");
    McpSession session = sessions.get(0);

    HttpResponse<InputStream> stream = openGet(sessionId, "999");
    session.notify("n/new", null);
    List<Event> events = readEvents(stream, 2);
    stream.body().close();

    assertThat(events).extracting(Event::method).containsExactly("", "n/new");
  }

  private HttpResponse<InputStream> openGet(String sessionId, String lastEventId)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(transport.uri())
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", sessionId)
            .timeout(Duration.ofSeconds(10))
            .GET();
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    HttpResponse<InputStream> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    return response;
  }

  /** One event: its id and parsed data ({@code method} is "" for a priming event). */
  record Event(String id, JsonNode data) {
    String method() {
      return data.path("method").asText("");
    }
  }

  private static BufferedReader reader(HttpResponse<InputStream> response) {
    return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
  }

  private static List<Event> readEvents(HttpResponse<InputStream> response, int count)
      throws IOException {
    return readEvents(reader(response), count);
  }

  private static List<Event> readEvents(BufferedReader reader, int count) throws IOException {
    StringBuilder block = new StringBuilder();
    List<Event> events = new ArrayList<>();
    while (events.size() < count) {
      String line = reader.readLine();
      if (line == null) {
        break;
      }
      if (line.isEmpty()) {
        events.addAll(parse(block.toString()));
        block.setLength(0);
      } else {
        block.append(line).append('\n');
      }
    }
    return events;
  }

  private static List<Event> parse(String body) throws IOException {
    List<Event> events = new ArrayList<>();
    for (String block : body.split("\n\n")) {
      String id = null;
      String data = null;
      for (String line : block.split("\n")) {
        if (line.startsWith("id:")) {
          id = line.substring(3).trim();
        } else if (line.startsWith("data:")) {
          data = line.substring(5).trim();
        }
      }
      if (id != null) {
        events.add(
            new Event(
                id,
                data == null || data.isEmpty() ? JSON.createObjectNode() : JSON.readTree(data)));
      }
    }
    return events;
  }
}
