package dev.skillport.mcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.junit.jupiter.api.Test;

/** A body stays in its heap array while small and moves into pooled buffers whole once large. */
class PooledBodyTest {
  private final ArrayByteBufferPool pool = new ArrayByteBufferPool();

  private static String text(int length) {
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; s.length() < length; i++) {
      s.append("é").append(i % 10);
    }
    return s.substring(0, length);
  }

  @Test
  void aSmallBodyStaysOnTheHeap() {
    PooledBody body = new PooledBody(pool);
    byte[] bytes = text(100).getBytes(StandardCharsets.UTF_8);
    body.write(bytes, 0, bytes.length);
    body.write('!');

    assertFalse(body.isPooled());
    assertEquals(bytes.length + 1, body.size());
    assertEquals(text(100) + "!", body.text());
  }

  @Test
  void aBodyPastTheLimitMovesIntoPooledBuffersWhole() {
    PooledBody body = new PooledBody(pool);
    byte[] bytes = text(300_000).getBytes(StandardCharsets.UTF_8);
    // Written as a serializer does, in pieces, with single bytes between them.
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    for (int at = 0; at < bytes.length; at += 1_000) {
      int n = Math.min(1_000, bytes.length - at);
      body.write(bytes, at, n);
      body.write(',');
      written.write(bytes, at, n);
      written.write(',');
    }

    assertTrue(body.isPooled());
    assertEquals(written.size(), body.size());
    assertEquals(written.toString(StandardCharsets.UTF_8), body.text());
  }

  @Test
  void aBodyFillingTheHeapArrayExactlyStaysThere() {
    PooledBody body = new PooledBody(pool);
    byte[] bytes = new byte[PooledBody.SMALL];
    Arrays.fill(bytes, (byte) 'a');
    body.write(bytes, 0, bytes.length);
    assertFalse(body.isPooled());

    body.write('b');
    assertTrue(body.isPooled());
    assertEquals("a".repeat(PooledBody.SMALL) + "b", body.text());
  }
}
