package dev.skillport.mcp.transport;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A plain JSON response body, serialized straight into direct buffers from the server's pool and
 * written to the socket from them. A {@code tools/list} page of tens of KB is not gathered in a
 * growing array, copied into an array of its exact size, then copied again into a direct buffer for
 * the socket: the serializer's output lands where the socket reads it. The buffers go back to the
 * pool once the response is written, or at {@link #release} if it never is.
 */
final class PooledBody extends OutputStream {
  /** The pool's largest pooled size: larger buffers would be allocated and dropped each time. */
  private static final int CHUNK = 64 * 1024;

  private final RetainableByteBuffer.DynamicCapacity buffer;
  private boolean released;

  PooledBody(ByteBufferPool pool) {
    this.buffer = new RetainableByteBuffer.DynamicCapacity(pool, true, -1, CHUNK);
  }

  @Override
  public void write(int b) {
    buffer.put((byte) b);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    buffer.put(bytes, offset, length);
  }

  /** The bytes written so far. */
  long size() {
    return buffer.size();
  }

  /** The body as text (for an event stream), released. */
  String text() {
    try {
      int length = Math.toIntExact(buffer.size());
      return new String(buffer.takeByteArray(), 0, length, StandardCharsets.UTF_8);
    } finally {
      release();
    }
  }

  /**
   * Answers with {@code status} and this body as {@code application/json}; the buffers are released
   * once written, whether or not the write succeeds.
   */
  void send(Response response, int status, Callback callback) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, buffer.size());
    // Released after the exchange's own callback, on the thread and with the invocation type it
    // has.
    buffer.writeTo(response, true, Callback.from(callback, this::release));
  }

  /** Gives the buffers back to the pool (once). */
  void release() {
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
    }
    buffer.release();
  }
}
