package dev.skillport.loader.files;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * Opens and reads regular files only, each under a size limit, for everything that reads a skill's
 * files: the loader, served resources, prompt files and digests.
 *
 * <p>A file is looked at before it is opened: a FIFO, device, socket or directory is refused
 * ({@link RefusedFileException.Reason#NOT_REGULAR}) without ever being opened, so no read can block
 * on it; a file over its limit is refused without being read. After opening, the open file's size
 * must still be the size seen before: a FIFO or device swapped in between has size 0 and is
 * refused, and an empty file is never read at all. The remaining window, a FIFO swapped in between
 * the check and the open, is closed by {@link BlockedOpens}. Links are followed; callers that must
 * stay inside a folder check the real path first.
 */
public final class RegularFiles {
  private static final int CHUNK = 64 * 1024;

  private RegularFiles() {}

  /**
   * An open regular file and its size when checked. Read at most {@code size} bytes (and one more
   * only to prove the end, when {@code size > 0}).
   */
  public record Opened(FileChannel channel, long size) implements Closeable {
    public Opened {
      Objects.requireNonNull(channel, "channel");
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /**
   * The attributes of {@code file} (links followed) when it is a regular file of at most {@code
   * maxBytes}; the file is not opened.
   *
   * @throws RefusedFileException when it is not a regular file or is too large
   * @throws IOException when it does not exist or cannot be looked at
   */
  public static BasicFileAttributes check(Path file, long maxBytes) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    check(file, a, maxBytes);
    return a;
  }

  private static void check(Path file, BasicFileAttributes a, long maxBytes)
      throws RefusedFileException {
    if (!a.isRegularFile()) {
      throw RefusedFileException.notRegular(file, FileKind.of(file, a));
    }
    if (a.size() > maxBytes) {
      throw RefusedFileException.tooLarge(file, a.size(), maxBytes);
    }
  }

  /** Opens {@code file} for reading when it is a regular file of at most {@code maxBytes}. */
  public static Opened open(Path file, long maxBytes) throws IOException {
    return open(file, Files.readAttributes(file, BasicFileAttributes.class), maxBytes);
  }

  /**
   * {@link #open(Path, long)} for a file whose attributes, links followed, were just read; spares
   * reading them again.
   */
  public static Opened open(Path file, BasicFileAttributes attributes, long maxBytes)
      throws IOException {
    check(file, attributes, maxBytes);
    long size = attributes.size();
    FileChannel channel = BlockedOpens.openForReading(file);
    try {
      long now = channel.size();
      if (now != size) {
        if (now > maxBytes) {
          throw RefusedFileException.tooLarge(file, now, maxBytes);
        }
        throw RefusedFileException.changed(file);
      }
      return new Opened(channel, size);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The whole content of a regular file of at most {@code maxBytes} (under 2 GiB). */
  public static byte[] readAll(Path file, long maxBytes) throws IOException {
    long limit = Math.min(maxBytes, Integer.MAX_VALUE - 16);
    try (Opened opened = open(file, limit)) {
      int size = (int) opened.size();
      byte[] bytes = new byte[size];
      if (size == 0) {
        return bytes;
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        if (opened.channel().read(buffer) < 0) {
          throw RefusedFileException.changed(file);
        }
      }
      if (opened.channel().read(ByteBuffer.allocate(1)) >= 0) {
        throw RefusedFileException.changed(file);
      }
      return bytes;
    }
  }

  /**
   * The SHA-256 of a regular file of at most {@code maxBytes}, read in chunks of 64 KiB: memory
   * does not grow with the file.
   */
  public static byte[] sha256(Path file, long maxBytes) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
    try (Opened opened = open(file, maxBytes)) {
      long left = opened.size();
      if (left == 0) {
        return digest.digest();
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(CHUNK, left + 1));
      while (true) {
        buffer.clear();
        int n = opened.channel().read(buffer);
        if (n < 0) {
          break;
        }
        left -= n;
        if (left < 0) {
          throw RefusedFileException.changed(file);
        }
        digest.update(buffer.array(), 0, n);
      }
      if (left != 0) {
        throw RefusedFileException.changed(file);
      }
      return digest.digest();
    }
  }
}
