package dev.skillport.loader.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class RegularFilesTest {
  @TempDir Path tmp;

  private Path fifo(String name) throws Exception {
    Path fifo = tmp.resolve(name);
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
    return fifo;
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  @Timeout(value = 5, unit = TimeUnit.SECONDS)
  void open_namedPipe_isRefusedWithoutOpening() throws Exception {
    Path fifo = fifo("tools.yaml");

    assertThatThrownBy(() -> RegularFiles.open(fifo, 100))
        .isInstanceOfSatisfying(
            RefusedFileException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(RefusedFileException.Reason.NOT_REGULAR);
              assertThat(e.kind()).isEqualTo(FileKind.FIFO);
              assertThat(e.getMessage()).contains("named pipe (FIFO)");
            });
    assertThatThrownBy(() -> WholeFile.read(fifo, 100)).isInstanceOf(RefusedFileException.class);
    assertThatThrownBy(() -> RegularFiles.sha256(fifo, 100))
        .isInstanceOf(RefusedFileException.class);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(value = 5, unit = TimeUnit.SECONDS)
  void open_linkToACharacterDevice_isRefused() throws IOException {
    Path link = Files.createSymbolicLink(tmp.resolve("asset.bin"), Path.of("/dev/zero"));

    assertThatThrownBy(() -> RegularFiles.readAll(link, 1 << 20))
        .isInstanceOfSatisfying(
            RefusedFileException.class,
            e -> assertThat(e.kind()).isEqualTo(FileKind.CHARACTER_DEVICE));
  }

  @Test
  void open_directory_isRefused() {
    assertThatThrownBy(() -> RegularFiles.open(tmp, 100))
        .isInstanceOfSatisfying(
            RefusedFileException.class, e -> assertThat(e.kind()).isEqualTo(FileKind.DIRECTORY));
  }

  @Test
  void readAll_sparseFileOverTheLimit_isRefusedWithoutReading() throws IOException {
    Path big = sparse("big.bin", 2L << 30);

    assertThatThrownBy(() -> RegularFiles.readAll(big, 8 << 20))
        .isInstanceOfSatisfying(
            RefusedFileException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(RefusedFileException.Reason.TOO_LARGE);
              assertThat(e.size()).isEqualTo(2L << 30);
              assertThat(e.limit()).isEqualTo(8 << 20);
            });
    assertThat(WholeFile.read(big, 100).bytes()).isNull();
    assertThat(WholeFile.read(big, 100).size()).isEqualTo(2L << 30);
  }

  @Test
  void readAll_smallFile_givesItsBytes() throws IOException {
    Path file = Files.writeString(tmp.resolve("a.txt"), "héllo");

    assertThat(new String(RegularFiles.readAll(file, 100), StandardCharsets.UTF_8))
        .isEqualTo("héllo");
    assertThat(RegularFiles.readAll(Files.writeString(tmp.resolve("e"), ""), 100)).isEmpty();
  }

  @Test
  void sha256_streamsTheFile() throws Exception {
    byte[] content = new byte[300_000];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31);
    }
    Path file = Files.write(tmp.resolve("data.bin"), content);

    assertThat(RegularFiles.sha256(file, content.length))
        .isEqualTo(MessageDigest.getInstance("SHA-256").digest(content));
    assertThat(RegularFiles.sha256(Files.write(tmp.resolve("empty"), new byte[0]), 1))
        .isEqualTo(MessageDigest.getInstance("SHA-256").digest(new byte[0]));
    assertThatThrownBy(() -> RegularFiles.sha256(file, content.length - 1))
        .isInstanceOf(RefusedFileException.class);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void openForReading_namedPipeWithNoWriter_isReleasedInsteadOfBlockingForever() throws Exception {
    // What a FIFO swapped in between the check and the open would do: block in open(2).
    Path fifo = fifo("swapped.yaml");
    long start = System.nanoTime();

    try (FileChannel opened = BlockedOpens.openForReading(fifo)) {
      assertThat(opened.size()).isZero();
    }

    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(BlockedOpens.RELEASE_AFTER_MILLIS))
        .isLessThan(Duration.ofSeconds(5));
  }

  private Path sparse(String name, long size) throws IOException {
    Path file = tmp.resolve(name);
    try (FileChannel c =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            StandardOpenOption.SPARSE)) {
      c.write(ByteBuffer.wrap(new byte[] {1}), size - 1);
    }
    return file;
  }
}
