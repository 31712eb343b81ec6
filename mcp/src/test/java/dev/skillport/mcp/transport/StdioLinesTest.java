package dev.skillport.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How the stdio transport cuts its input into lines and writes its output lines. */
@Timeout(20)
class StdioLinesTest {
  private static List<String> lines(InputStream in, int max) throws IOException {
    StdioTransport.LineReader reader = new StdioTransport.LineReader(in, max);
    List<String> out = new ArrayList<>();
    StdioTransport.LineReader.Line line;
    while ((line = reader.next()) != null) {
      String text = new String(line.bytes(), 0, line.length(), StandardCharsets.UTF_8);
      out.add(line.tooLong() ? "TOO LONG " + text.length() : text);
    }
    return out;
  }

  private static InputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Hands out at most {@code step} bytes per read, as a pipe may. */
  private static InputStream trickle(String text, int step) {
    return new FilterInputStream(bytes(text)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return super.read(b, off, Math.min(len, step));
      }
    };
  }

  @Test
  void next_crlfEmptyAndUnterminatedLines_areEachALine() throws Exception {
    assertThat(lines(bytes("a\r\n\nb c\nlast"), 100)).containsExactly("a", "", "b c", "last");
  }

  @Test
  void next_linesSplitAcrossReadsAndBuffers_areWhole() throws Exception {
    String big = "x".repeat(20_000);
    String text = "one\n" + big + "\ntwo\n";

    assertThat(lines(trickle(text, 3), 1 << 20)).containsExactly("one", big, "two");
    assertThat(lines(bytes(text), 1 << 20)).containsExactly("one", big, "two");
  }

  @Test
  void next_overlongLine_keepsTheCapFlagsItAndTheNextLineIsWhole() throws Exception {
    String text = "y".repeat(10_000) + "\nafter\n";

    assertThat(lines(trickle(text, 777), 16)).containsExactly("TOO LONG 16", "after");
    assertThat(lines(bytes(text), 16)).containsExactly("TOO LONG 16", "after");
  }

  @Test
  void run_eachAnswer_leavesInOneWrite() throws Exception {
    EchoApplication app = new EchoApplication();
    List<byte[]> writes = new CopyOnWriteArrayList<>();
    OutputStream recording =
        new OutputStream() {
          @Override
          public void write(int b) {
            writes.add(new byte[] {(byte) b});
          }

          @Override
          public void write(byte[] b, int off, int len) {
            writes.add(java.util.Arrays.copyOfRange(b, off, off + len));
          }
        };
    PipedInputStream serverIn = new PipedInputStream(1 << 16);
    PipedOutputStream toServer = new PipedOutputStream(serverIn);
    CompletableFuture<Void> running =
        CompletableFuture.runAsync(new StdioTransport(app.server, serverIn, recording)::run);
    toServer.write(
        (String.format(HttpTestClient.INIT, "2025-06-18")
                + "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
            .getBytes(StandardCharsets.UTF_8));
    toServer.close();
    running.get(10, TimeUnit.SECONDS);
    app.server.close();

    assertThat(writes).hasSizeGreaterThanOrEqualTo(2);
    for (byte[] w : writes) {
      String text = new String(w, StandardCharsets.UTF_8);
      assertThat(text).startsWith("{").endsWith("}\n");
      assertThat(text.indexOf('\n')).isEqualTo(text.length() - 1);
    }
  }
}
