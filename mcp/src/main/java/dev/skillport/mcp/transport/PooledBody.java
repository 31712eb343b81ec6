package dev.skillport.mcp.transport;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A plain JSON response body. A small one (most answers: a call's result, an error) stays in one
 * heap array. A large one (a {@code tools/list} page of tens of KB) moves on, once past {@value
 * #SMALL} bytes, into direct buffers from the server's pool and is written to the socket from them:
 * it is not gathered in a growing array, copied into an array of its exact size, then copied again
 * into a direct buffer for the socket. Pooled buffers go back to the pool once the response is
 * written, or at {@link #release} if it never is.
 */
final class PooledBody extends OutputStream {
  /**
   * Up to this size an answer stays on the heap: for a small body, taking a buffer from the pool
   * and giving it back costs more than the copy it saves.
   */
  static final int SMALL = 8 * 1024;

  /** The pool's largest pooled size: larger buffers would be allocated and dropped each time. */
  private static final int CHUNK = 64 * 1024;

  private final ByteBufferPool pool;
  // Grown by doubling up to SMALL: a typical answer is a few hundred bytes, and a larger array per
  // answer would be garbage the collector has to keep up with at thousands of calls a second.
  private byte[] small = new byte[512];
  private int count;
  // Null while the body fits in the heap array.
  private RetainableByteBuffer.DynamicCapacity pooled;
  private boolean released;

  PooledBody(ByteBufferPool pool) {
    this.pool = pool;
  }

  @Override
  public void write(int b) {
    if (pooled == null) {
      if (count < SMALL) {
        room(1);
        small[count++] = (byte) b;
        return;
      }
      spill();
    }
    pooled.put((byte) b);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    if (pooled == null) {
      if (length <= SMALL - count) {
        room(length);
        System.arraycopy(bytes, offset, small, count, length);
        count += length;
        return;
      }
      spill();
    }
    pooled.put(bytes, offset, length);
  }

  private void room(int length) {
    if (count + length > small.length) {
      small = Arrays.copyOf(small, Math.min(SMALL, Math.max(count + length, small.length * 2)));
    }
  }

  private void spill() {
    pooled = new RetainableByteBuffer.DynamicCapacity(pool, true, -1, CHUNK);
    pooled.put(small, 0, count);
    small = null;
  }

  /** The bytes written so far. */
  long size() {
    return pooled == null ? count : pooled.size();
  }

  /** Whether the body moved into pooled buffers. */
  boolean isPooled() {
    return pooled != null;
  }

  /** The body as text (for an event stream), released. */
  String text() {
    try {
      if (pooled == null) {
        return new String(small, 0, count, StandardCharsets.UTF_8);
      }
      int length = Math.toIntExact(pooled.size());
      return new String(pooled.takeByteArray(), 0, length, StandardCharsets.UTF_8);
    } finally {
      release();
    }
  }

  /**
   * Answers with {@code status} and this body as {@code application/json}; pooled buffers are
   * released once written, whether or not the write succeeds.
   */
  void send(Response response, int status, Callback callback) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size());
    if (pooled == null) {
      response.write(true, ByteBuffer.wrap(small, 0, count), callback);
      return;
    }
    // Released after the exchange's own callback, on the thread and with the invocation type it
    // has.
    pooled.writeTo(response, true, Callback.from(callback, this::release));
  }

  /** Gives pooled buffers back to the pool (once). */
  void release() {
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
    }
    if (pooled != null) {
      pooled.release();
    }
  }
}
