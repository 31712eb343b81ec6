package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.mcp.JsonRpcMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class StdioTransportTapTest {
  private static final String REPLACED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}";

  /** Keeps the answer to id 2 off the output and puts another line in place of id 3's. */
  private static final class RecordingTap implements StdioTransport.Tap {
    final List<String> read = new ArrayList<>();
    final List<String> written = new ArrayList<>();
    int activeAfterReads = Integer.MAX_VALUE;
    boolean ended;

    @Override
    public void read(byte[] line, int length, JsonRpcMessage message) {
      read.add(new String(line, 0, length, StandardCharsets.UTF_8));
    }

    @Override
    public byte[] write(byte[] line) {
      String text = new String(line, StandardCharsets.UTF_8);
      written.add(text);
      if (text.contains("\"id\":2")) {
        return null;
      }
      return text.contains("\"id\":3") ? REPLACED.getBytes(StandardCharsets.UTF_8) : line;
    }

    @Override
    public void ended() {
      ended = true;
    }

    @Override
    public boolean active() {
      return read.size() < activeAfterReads;
    }
  }

  private static final List<String> INPUT =
      List.of(
          String.format(HttpTestClient.INIT, "2025-06-18"),
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");

  private static List<String> run(StdioTransport.Tap tap) {
    EchoApplication app = new EchoApplication();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] in = (String.join("\n", INPUT) + "\n").getBytes(StandardCharsets.UTF_8);
    new StdioTransport(app.server, new ByteArrayInputStream(in), out).tap(tap).run();
    app.server.close();
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void tap_seesEveryLine_andDecidesWhatIsWritten() {
    RecordingTap tap = new RecordingTap();

    List<String> out = run(tap);

    assertThat(tap.read).isEqualTo(INPUT);
    assertThat(tap.written).hasSize(4);
    assertThat(out).hasSize(3);
    assertThat(out.get(0)).contains("\"id\":1").contains("\"protocolVersion\"");
    assertThat(out).doesNotContain("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    assertThat(out).contains(REPLACED, "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}");
    assertThat(tap.ended).as("told the input ended").isTrue();
  }

  @Test
  void tap_noLongerActive_isNotShownMore_andTheServerWritesAsUsual() {
    RecordingTap tap = new RecordingTap();
    tap.activeAfterReads = 2;

    List<String> out = run(tap);

    assertThat(tap.read).hasSize(2);
    assertThat(tap.ended).isFalse();
    assertThat(out)
        .contains(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");
  }
}
