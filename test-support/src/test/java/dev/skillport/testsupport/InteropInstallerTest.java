package dev.skillport.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code interop/interop.mjs} installing into an empty cache while another install of the same tool
 * runs: both get the same complete tool, and no staging folder is left. npm's download cache is the
 * real interop cache's, so the packages come from disk after their first download.
 */
class InteropInstallerTest {
  @TempDir Path cache;

  private ExternalCommand install(String... args) {
    List<String> command =
        Stream.concat(
                Stream.of(
                    "node", InteropTools.repository().resolve("interop/interop.mjs").toString()),
                Stream.of(args))
            .toList();
    return ExternalCommand.of(command)
        .environment(InteropTools.environment())
        .environment(
            Map.of(
                "SKILLPORT_INTEROP_CACHE",
                cache.toString(),
                "npm_config_cache",
                InteropTools.cache().resolve("npm-cache").toString()))
        .timeout(Duration.ofMinutes(5));
  }

  @Test
  void path_twoInstallsAtOnce_bothGetTheSameCompleteToolAndNoStagingIsLeft() throws Exception {
    CompletableFuture<ExternalCommand.Outcome> first =
        CompletableFuture.supplyAsync(() -> install("path", "sdk@1").run());
    CompletableFuture<ExternalCommand.Outcome> second =
        CompletableFuture.supplyAsync(() -> install("path", "sdk@1").run());

    ExternalCommand.Outcome a = first.get();
    ExternalCommand.Outcome b = second.get();

    assertThat(a.exit()).as(a.toString()).isZero();
    assertThat(b.exit()).as(b.toString()).isZero();
    assertThat(a.stdout().strip()).isEqualTo(b.stdout().strip());
    Path manifest = Path.of(a.stdout().strip());
    assertThat(manifest)
        .isEqualTo(cache.resolve("sdk-1.32.2/node_modules/@modelcontextprotocol/sdk/package.json"));
    assertThat(Files.readString(manifest)).contains("\"version\": \"1.32.2\"");
    try (Stream<Path> staging = Files.list(cache.resolve(".staging"))) {
      assertThat(staging).isEmpty();
    }
  }

  @Test
  void path_unknownToolOrUnpinnedAlias_usageErrorExitTwo() {
    ExternalCommand.Outcome unknown = install("path", "no-such-tool").run();
    ExternalCommand.Outcome alias = install("path", "node@21").run();

    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.stderr()).contains("unknown tool 'no-such-tool'");
    assertThat(alias.exit()).isEqualTo(2);
    assertThat(alias.stderr()).contains("no pinned version '21' of node").contains("22.23.3");
  }
}
