package dev.skillport.loader.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WholeFileTest {
  @TempDir Path tmp;

  @Test
  void read_smallFile_givesItsBytesAndSize() throws IOException {
    Path file = Files.writeString(tmp.resolve("a.yaml"), "name: x\n");

    WholeFile.Snapshot read = WholeFile.read(file, 100);

    assertThat(read.size()).isEqualTo(8);
    assertThat(new String(read.bytes(), 0, read.length(), StandardCharsets.UTF_8))
        .isEqualTo("name: x\n");
  }

  @Test
  void read_emptyFile_givesNoBytes() throws IOException {
    Path file = Files.writeString(tmp.resolve("empty.yaml"), "");

    WholeFile.Snapshot read = WholeFile.read(file, 100);

    assertThat(read.size()).isZero();
    assertThat(read.bytes()).isNotNull();
  }

  @Test
  void read_overTheLimit_givesTheSizeWithoutReading() throws IOException {
    Path file = Files.write(tmp.resolve("big.yaml"), new byte[5000]);

    WholeFile.Snapshot read = WholeFile.read(file, 4999);

    assertThat(read.size()).isEqualTo(5000);
    assertThat(read.bytes()).isNull();
  }

  @Test
  void read_fileLargerThanTheKeptBuffer_isReadWhole() throws IOException {
    byte[] content = new byte[300_000];
    Arrays.fill(content, (byte) 'x');
    content[content.length - 1] = 'y';
    Path file = Files.write(tmp.resolve("large.yaml"), content);

    WholeFile.Snapshot read = WholeFile.read(file, 1_000_000);

    assertThat(Arrays.copyOf(read.bytes(), read.length())).isEqualTo(content);
  }

  @Test
  void readExactly_shortReadsThatAddUpToTheSize_giveTheBytes() throws IOException {
    byte[] read = WholeFile.readExactly(new Chunked("abcdefgh".getBytes(), 3), 8);

    assertThat(new String(read, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("abcdefgh");
  }

  @Test
  void readExactly_fileGrewSinceItsSize_givesNull() throws IOException {
    assertThat(WholeFile.readExactly(new Chunked("abcdefghi".getBytes(), 100), 8)).isNull();
    assertThat(WholeFile.readExactly(new Chunked("a".getBytes(), 100), 0)).isNull();
  }

  @Test
  void readExactly_fileShrankSinceItsSize_givesNull() throws IOException {
    assertThat(WholeFile.readExactly(new Chunked("abc".getBytes(), 100), 8)).isNull();
  }

  /** A channel over fixed content that gives at most {@code chunk} bytes per read. */
  private static final class Chunked implements SeekableByteChannel {
    private final byte[] content;
    private final int chunk;
    private int at;

    Chunked(byte[] content, int chunk) {
      this.content = content;
      this.chunk = chunk;
    }

    @Override
    public int read(ByteBuffer dst) {
      if (at >= content.length) {
        return -1;
      }
      int n = Math.min(Math.min(chunk, dst.remaining()), content.length - at);
      dst.put(content, at, n);
      at += n;
      return n;
    }

    @Override
    public int write(ByteBuffer src) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long position() {
      return at;
    }

    @Override
    public SeekableByteChannel position(long newPosition) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long size() {
      return content.length;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
