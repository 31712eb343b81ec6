package dev.skillport.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayMembershipTest {
  @TempDir Path dir;

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private GatewayMembership membership(FolderRegistry registry, GatewayMembership.Starter starter) {
    InstanceEntry entry =
        new InstanceEntry(
            "i" + System.nanoTime(),
            URI.create("http://127.0.0.1:1/mcp"),
            null,
            null,
            List.of(),
            "",
            List.of(),
            "",
            1,
            null);
    return new GatewayMembership(
        registry,
        entry,
        () -> "d",
        Optional.of(starter),
        new InstanceClient("test"),
        Clock.systemUTC());
  }

  /** A "gateway" that only notes it was started, then ends. */
  private GatewayMembership.Starter starter(Path starts) throws IOException {
    return new GatewayMembership.Starter(
        URI.create("http://127.0.0.1:" + closedPort() + "/mcp"),
        List.of("sh", "-c", "echo started >> '" + starts + "'; sleep 1"));
  }

  private static long lines(Path file) throws IOException {
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }

  @Test
  void startsAtOnce_exactlyOneStart_andTheLockIsGoneAfter() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("registry"));
    Path starts = dir.resolve("starts");
    GatewayMembership.Starter starter = starter(starts);
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      GatewayMembership m = membership(registry, starter);
      all.add(
          CompletableFuture.runAsync(
              () -> {
                try {
                  go.await();
                  m.startUnderLock(starter);
                } catch (IOException | InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              }));
    }
    go.countDown();
    all.forEach(CompletableFuture::join);

    assertThat(lines(starts)).isEqualTo(1);
    assertThat(registry.root().resolve(GatewayMembership.LOCK)).doesNotExist();
  }

  @Test
  void aFreshLock_isLeftToItsHolder_aStaleOneIsTakenOver() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("registry"));
    Path starts = dir.resolve("starts");
    GatewayMembership.Starter starter = starter(starts);
    Path lock = Files.writeString(registry.root().resolve(GatewayMembership.LOCK), "1 then\n");

    membership(registry, starter).startUnderLock(starter);
    assertThat(lines(starts)).isZero();
    assertThat(lock).exists();

    Files.setLastModifiedTime(
        lock,
        FileTime.from(
            Instant.now().minus(GatewayMembership.STALE_LOCK).minus(Duration.ofSeconds(1))));
    membership(registry, starter).startUnderLock(starter);
    assertThat(lines(starts)).isEqualTo(1);
    assertThat(lock).doesNotExist();
  }

  @Test
  void start_registers_close_leaves() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("registry"));
    GatewayMembership m =
        new GatewayMembership(
            registry,
            new InstanceEntry(
                "plain",
                URI.create("http://127.0.0.1:1/mcp"),
                null,
                null,
                List.of(),
                "",
                List.of(),
                "",
                1,
                null),
            () -> "sha256:ab",
            Optional.empty(),
            new InstanceClient("test"),
            Clock.systemUTC());
    m.start();
    assertThat(registry.list())
        .extracting(InstanceEntry::catalogDigest)
        .containsExactly("sha256:ab");
    m.close();
    assertThat(registry.list()).isEmpty();
  }
}
