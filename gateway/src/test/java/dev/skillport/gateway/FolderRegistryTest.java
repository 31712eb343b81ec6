package dev.skillport.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderRegistryTest {
  @TempDir Path dir;

  private static InstanceEntry entry(String id, int port) {
    return new InstanceEntry(
        id,
        URI.create("http://127.0.0.1:" + port + "/mcp"),
        "blender",
        "4.2",
        List.of("blender"),
        "sha256:00",
        List.of("2026-07-28", "2025-11-25"),
        "0.1.0",
        42,
        Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Test
  void put_list_remove_roundTripsEveryField() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("gateway"));
    registry.put(entry("b", 2));
    registry.put(entry("a", 1));

    assertThat(registry.list()).containsExactly(entry("a", 1), entry("b", 2));
    registry.remove("a");
    assertThat(registry.list()).containsExactly(entry("b", 2));
    registry.remove("never-there");
    assertThat(registry.list()).hasSize(1);
  }

  @Test
  void open_makesTheFolderOwnerOnly_andEntriesOwnerOnly() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("gateway"));
    registry.put(entry("a", 1));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(registry.root())))
        .isEqualTo("rwx------");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(registry.root().resolve("instances/a.json"))))
        .isEqualTo("rw-------");
  }

  @Test
  void open_narrowsAFolderOthersMayWrite() throws Exception {
    Path folder = Files.createDirectory(dir.resolve("open"));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));

    FolderRegistry.open(folder);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)))
        .isEqualTo("rwx------");
  }

  @Test
  void put_replacesWhole_andLeavesNoTemporaryFile() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("gateway"));
    InstanceEntry first = entry("a", 1);
    registry.put(first);
    InstanceEntry later = first.beat(Instant.parse("2026-01-01T00:00:05Z"), "sha256:11");
    registry.put(later);

    assertThat(registry.list()).containsExactly(later);
    try (Stream<Path> files = Files.list(registry.root().resolve("instances"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("a.json");
    }
  }

  @Test
  void concurrentHeartbeats_readersAlwaysSeeAWholeEntry() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("gateway"));
    registry.put(entry("a", 1));
    CompletableFuture<Void> writer =
        CompletableFuture.runAsync(
            () ->
                IntStream.range(0, 300)
                    .forEach(
                        i -> {
                          try {
                            registry.put(
                                entry("a", 1).beat(Instant.ofEpochSecond(i), "sha256:" + i));
                          } catch (Exception e) {
                            throw new IllegalStateException(e);
                          }
                        }));
    while (!writer.isDone()) {
      assertThat(registry.list()).hasSize(1);
    }
    writer.join();
    assertThat(registry.list().get(0).catalogDigest()).isEqualTo("sha256:299");
  }

  @Test
  void list_skipsUnreadableAndMisnamedEntries() throws Exception {
    FolderRegistry registry = FolderRegistry.open(dir.resolve("gateway"));
    registry.put(entry("a", 1));
    Files.writeString(registry.root().resolve("instances/broken.json"), "{not json");
    Files.copy(
        registry.root().resolve("instances/a.json"), registry.root().resolve("instances/b.json"));

    assertThat(registry.list()).extracting(InstanceEntry::id).containsExactly("a");
  }

  @Test
  void entry_refusesAnIdThatCannotBeQualified() {
    assertThatThrownBy(() -> entry("a/b", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a/b");
  }
}
