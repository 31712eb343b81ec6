package dev.skillport.loader.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a small file whole: one open, one size query, usually one read, one close.
 *
 * <p>A loader reads thousands of files of a few kilobytes each, where system calls, not bytes, are
 * the cost. The size comes from the open file, so a file over the limit is never read; the bytes
 * land in a buffer kept per thread, so nothing is allocated per file. Each read asks for one byte
 * more than the size: a regular file only gives fewer bytes than asked at its end, so a read that
 * stops exactly at the size also proves the file ends there, without a further read to find the
 * end. A file that turns out shorter or longer than its size changed while it was read and yields
 * no bytes. Only regular files are opened ({@link RegularFiles}): anything else is refused with a
 * {@link RefusedFileException} before it is opened.
 */
public final class WholeFile {
  private static final ThreadLocal<byte[]> BUFFERS = new ThreadLocal<>();

  /** Buffers up to this size are kept for the thread's next file. */
  private static final int MAX_KEPT_BUFFER = 128 * 1024;

  /** The largest size read at all: an array needs room for the size plus one byte. */
  private static final long MAX_READABLE = Integer.MAX_VALUE - 16;

  private WholeFile() {}

  /**
   * What one read found.
   *
   * @param size the file's size when it was opened, or -1 when it changed while it was opened
   * @param bytes the file's {@code size} bytes at the start of this thread's buffer (valid until
   *     the thread reads another file), or null when the size is over the limit or the file changed
   *     size while it was read
   */
  public record Snapshot(long size, byte[] bytes) {
    /** The number of bytes in {@link #bytes}; meaningful only when they are there. */
    public int length() {
      return (int) size;
    }
  }

  /**
   * Reads {@code file} when it has at most {@code maxBytes} bytes.
   *
   * @throws RefusedFileException when it is not a regular file
   */
  public static Snapshot read(Path file, long maxBytes) throws IOException {
    return read(file, null, maxBytes);
  }

  /**
   * {@link #read(Path, long)} for a file whose attributes, links followed, are known (null when
   * not): spares looking at it again.
   */
  public static Snapshot read(Path file, BasicFileAttributes attributes, long maxBytes)
      throws IOException {
    long limit = Math.min(maxBytes, MAX_READABLE);
    try (RegularFiles.Opened opened =
        attributes == null
            ? RegularFiles.open(file, limit)
            : RegularFiles.open(file, attributes, limit)) {
      long size = opened.size();
      if (size == 0) {
        // Nothing to read; a device or FIFO swapped in for an empty file is never read from.
        return new Snapshot(0, buffer(1));
      }
      return new Snapshot(size, readExactly(opened.channel(), (int) size));
    } catch (RefusedFileException e) {
      return switch (e.reason()) {
        case TOO_LARGE -> new Snapshot(e.size(), null);
        case CHANGED -> new Snapshot(-1, null);
        case NOT_REGULAR -> throw e;
      };
    }
  }

  /**
   * The {@code size} bytes {@code channel} holds from its position, or null when it holds fewer or
   * more.
   */
  static byte[] readExactly(SeekableByteChannel channel, int size) throws IOException {
    byte[] bytes = buffer(size + 1);
    ByteBuffer buffer = ByteBuffer.wrap(bytes, 0, size + 1);
    do {
      if (channel.read(buffer) < 0) {
        break;
      }
    } while (buffer.position() < size);
    return buffer.position() == size ? bytes : null;
  }

  private static byte[] buffer(int length) {
    byte[] kept = BUFFERS.get();
    if (kept != null && kept.length >= length) {
      return kept;
    }
    byte[] fresh = new byte[Math.max(length, 8192)];
    if (fresh.length <= MAX_KEPT_BUFFER) {
      BUFFERS.set(fresh);
    }
    return fresh;
  }
}
