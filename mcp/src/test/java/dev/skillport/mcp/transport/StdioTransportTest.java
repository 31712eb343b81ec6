package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class StdioTransportTest {
  private EchoApplication app;
  private OutputStream toServer;
  private final BlockingQueue<String> fromServer = new LinkedBlockingQueue<>();
  private CompletableFuture<Void> running;

  @BeforeEach
  void setUp() throws IOException {
    app = new EchoApplication();
    PipedInputStream serverIn = new PipedInputStream(1 << 20);
    toServer = new PipedOutputStream(serverIn);
    PipedOutputStream serverOut = new PipedOutputStream();
    PipedInputStream clientIn = new PipedInputStream(serverOut, 1 << 20);
    StdioTransport transport = new StdioTransport(app.server, serverIn, serverOut, 1024);
    running = CompletableFuture.runAsync(transport::run);
    CompletableFuture.runAsync(
        () -> {
          try (BufferedReader reader =
              new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
              fromServer.add(line);
            }
          } catch (IOException e) {
            // the server side closed; nothing more to read
          }
        });
  }

  @AfterEach
  void tearDown() throws IOException {
    toServer.close();
    app.server.close();
  }

  private void send(String line) throws IOException {
    toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    toServer.flush();
  }

  private JsonNode next() throws Exception {
    String line = fromServer.poll(5, TimeUnit.SECONDS);
    assertThat(line).as("a line from the server").isNotNull();
    return HttpTestClient.json(line);
  }

  private void initialize() throws Exception {
    send(String.format(HttpTestClient.INIT, "2025-06-18"));
    assertThat(next().path("result").path("protocolVersion").asText()).isEqualTo("2025-06-18");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  @Test
  void run_initializeThenToolCall_answersEachLineWithOneLine() throws Exception {
    initialize();

    send(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
            + "\"arguments\":{\"text\":\"via stdio\"},\"_meta\":{\"progressToken\":\"t\"}}}");

    JsonNode progress = next();
    assertThat(progress.path("method").asText()).isEqualTo("notifications/progress");
    assertThat(next().path("method").asText()).isEqualTo("notifications/message");
    assertThat(next().path("method").asText()).isEqualTo("notifications/progress");
    JsonNode result = next();
    assertThat(result.path("id").asInt()).isEqualTo(2);
    assertThat(result.path("result").path("content").get(0).path("text").asText())
        .isEqualTo("via stdio");
  }

  @Test
  void run_malformedLine_isParseErrorWithNullId_andNextLineIsServed() throws Exception {
    send("{not json");
    JsonNode error = next();
    send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");

    assertThat(error.path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(error.get("id").isNull()).isTrue();
    assertThat(next().path("id").asText()).isEqualTo("p");
  }

  @Test
  void run_overlongLine_isRefusedAndSkipped() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
            + "x".repeat(2000)
            + "\"}}");
    JsonNode error = next();
    send("{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}");

    assertThat(error.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(next().path("id").asText()).isEqualTo("after");
  }

  @Test
  void run_sessionNotify_reachesStdout() throws Exception {
    initialize();
    assertThat(app.sessions).hasSize(1);

    app.sessions.get(0).notify("notifications/tools/list_changed", null);

    assertThat(next().path("method").asText()).isEqualTo("notifications/tools/list_changed");
  }

  @Test
  void run_aCall_runsOnTheThreadThatReadIt_notOnAWorker() throws Exception {
    initialize();

    send(
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"thread\"}}");

    JsonNode answer = next();
    assertThat(answer.path("id").asInt()).isEqualTo(5);
    assertThat(answer.at("/result/content/0/text").asText()).doesNotStartWith("mcp-worker");
  }

  @Test
  void run_aCallWaitingForTheClient_handsReadingOn_andGetsTheClientsAnswer() throws Exception {
    initialize();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{"
            + "\"name\":\"test_sampling\",\"arguments\":{\"prompt\":\"hi\"}}}");

    // The call runs on the thread that read it and waits for this answer: another thread must
    // read it.
    JsonNode question = next();
    assertThat(question.path("method").asText()).isEqualTo("sampling/createMessage");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + question.get("id")
            + ",\"result\":{\"role\":\"assistant\",\"model\":\"m\","
            + "\"content\":{\"type\":\"text\",\"text\":\"hello back\"}}}");
    JsonNode answer = next();
    send("{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}");

    assertThat(answer.path("id").asInt()).isEqualTo(7);
    assertThat(answer.at("/result/content/0/text").asText()).isEqualTo("LLM response: hello back");
    assertThat(next().path("id").asText()).isEqualTo("after");
  }

  @Test
  void run_pingsWhileALongCallRuns_areAnsweredAtOnce() throws Exception {
    initialize();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"test_tool_with_progress\"}}");
    send("{\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}");

    // The call takes 150 ms; the ping, read after the call's first hand-off, is answered first.
    String firstAnswer = null;
    for (int i = 0; i < 10 && firstAnswer == null; i++) {
      JsonNode message = next();
      if (message.has("id")) {
        firstAnswer = message.get("id").asText();
      }
    }
    assertThat(firstAnswer).isEqualTo("p1");
  }

  @Test
  void run_inputClosed_returnsAndClosesSession() throws Exception {
    initialize();

    toServer.close();

    running.get(5, TimeUnit.SECONDS);
    assertThat(app.sessions).isEmpty();
  }

  @Test
  void run_inputClosedWhileACallRuns_answersItBeforeClosingTheSession() throws Exception {
    initialize();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"test_tool_with_logging\"}}");

    toServer.close();

    running.get(10, TimeUnit.SECONDS);
    JsonNode answer = null;
    for (String line = fromServer.poll(5, TimeUnit.SECONDS);
        line != null;
        line = fromServer.poll(1, TimeUnit.SECONDS)) {
      JsonNode message = HttpTestClient.json(line);
      if (message.path("id").asInt() == 9) {
        answer = message;
        break;
      }
    }
    assertThat(answer).as("the answer to the call read before the end of input").isNotNull();
    assertThat(answer.path("result").path("content").get(0).path("text").asText())
        .isEqualTo("logging done");
    assertThat(app.sessions).isEmpty();
  }
}
