package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.cli.StartCache.Opening;
import dev.skillport.cli.StartCache.Step;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class OpeningLaneTest {
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\"}}";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"tools/list\"}";
  private static final String CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}";

  static final Opening OPENING =
      new Opening(
          List.of(Path.of("/skills")),
          new byte[16],
          List.of(
              new Step(
                  "initialize",
                  bytes("{\"protocolVersion\":\"2025-06-18\"}"),
                  bytes("{\"protocolVersion\":\"2025-06-18\"}")),
              new Step("notifications/initialized", new byte[0], null),
              new Step("tools/list", new byte[0], bytes("{\"tools\":[{\"name\":\"echo\"}]}"))));

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  private static String readAll(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void run_theKeptOpening_answersEachRequestWithTheLiveId_andTheServerReadsEverything()
      throws IOException {
    String input =
        lines(String.format(INITIALIZE, "\"a\""), "", INITIALIZED, String.format(LIST, 7), CALL)
            + "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OpeningLane lane = new OpeningLane(OPENING, new ByteArrayInputStream(bytes(input)), out);

    lane.run();

    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            lines(
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"protocolVersion\":\"2025-06-18\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"tools\":[{\"name\":\"echo\"}]}}"));
    assertThat(lane.answered()).containsOnlyKeys("\"a\"", "7");
    // The answered lines first (the blank one left out), then all the lane did not take.
    assertThat(readAll(lane.input()))
        .isEqualTo(
            lines(String.format(INITIALIZE, "\"a\""), INITIALIZED, String.format(LIST, 7), CALL)
                + "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}");
  }

  @Test
  void run_anotherFirstMessage_answersNothing() throws IOException {
    String input = lines(CALL, String.format(INITIALIZE, 1));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OpeningLane lane = new OpeningLane(OPENING, new ByteArrayInputStream(bytes(input)), out);

    lane.run();

    assertThat(out.size()).isZero();
    assertThat(readAll(lane.input())).isEqualTo(input);
  }

  @Test
  void run_aRepeatedIdOrOtherParams_endsTheLaneThere() throws IOException {
    String input =
        lines(
            String.format(INITIALIZE, 1),
            INITIALIZED,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OpeningLane lane = new OpeningLane(OPENING, new ByteArrayInputStream(bytes(input)), out);
    lane.run();
    assertThat(lane.answered()).containsOnlyKeys("1");
    assertThat(readAll(lane.input())).isEqualTo(input);

    String cursor =
        lines(
            String.format(INITIALIZE, 1),
            INITIALIZED,
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}");
    OpeningLane other =
        new OpeningLane(
            OPENING, new ByteArrayInputStream(bytes(cursor)), new ByteArrayOutputStream());
    other.run();
    assertThat(other.answered()).containsOnlyKeys("1");
  }

  @Test
  void takeOutput_stopsTheLane_andTheNextLineIsTheServers() throws Exception {
    PipedInputStream stdin = new PipedInputStream(1 << 16);
    PipedOutputStream client = new PipedOutputStream(stdin);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OpeningLane lane = new OpeningLane(OPENING, stdin, out);
    CompletableFuture<Void> running = CompletableFuture.runAsync(lane::run);
    client.write(bytes(lines(String.format(INITIALIZE, 1), INITIALIZED)));
    client.flush();
    while (lane.answered().isEmpty()) {
      Thread.sleep(5);
    }

    lane.takeOutput();
    client.write(bytes(lines(String.format(LIST, 2))));
    client.close();
    running.get(10, TimeUnit.SECONDS);

    assertThat(lane.answered()).containsOnlyKeys("1");
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("\"id\":2");
    assertThat(readAll(lane.input()))
        .isEqualTo(lines(String.format(INITIALIZE, 1), INITIALIZED, String.format(LIST, 2)));
  }

  @Test
  void input_readWhileTheLaneWaits_stopsTheLaneAndGetsTheNextLine() throws Exception {
    PipedInputStream stdin = new PipedInputStream(1 << 16);
    PipedOutputStream client = new PipedOutputStream(stdin);
    OpeningLane lane = new OpeningLane(OPENING, stdin, new ByteArrayOutputStream());
    CompletableFuture.runAsync(lane::run);
    client.write(bytes(lines(String.format(INITIALIZE, 1))));
    client.flush();
    while (lane.answered().isEmpty()) {
      Thread.sleep(5);
    }
    CompletableFuture<String> server = CompletableFuture.supplyAsync(() -> read(lane.input()));

    Thread.sleep(100);
    assertThat(server).isNotDone();
    client.write(bytes(lines(INITIALIZED, String.format(LIST, 2))));
    client.close();

    assertThat(server.get(10, TimeUnit.SECONDS))
        .isEqualTo(lines(String.format(INITIALIZE, 1), INITIALIZED, String.format(LIST, 2)));
    assertThat(lane.answered()).containsOnlyKeys("1");
  }

  private static String read(InputStream in) {
    try {
      return readAll(in);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
