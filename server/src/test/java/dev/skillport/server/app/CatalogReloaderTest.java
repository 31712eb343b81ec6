package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.api.skill.Scope;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.loader.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogReloaderTest {
  @TempDir Path root;

  private static String skillMd(String name, String description) {
    return "---\nname: " + name + "\ndescription: " + description + "\n---\nbody\n";
  }

  @Test
  void start_newEditedAndDeletedSkills_swapCatalogAfterDebounce() throws Exception {
    Files.createDirectories(root.resolve("one"));
    Files.writeString(root.resolve("one/SKILL.md"), skillMd("one", "first"));
    CatalogHolder holder = new CatalogHolder(Catalog.empty());
    AtomicInteger swaps = new AtomicInteger();
    holder.onSwap((a, b) -> swaps.incrementAndGet());
    try (CatalogReloader reloader =
        new CatalogReloader(
            new SkillLoader(LoaderOptions.DEFAULTS),
            List.of(SkillRoot.of(root, Scope.REPO)),
            holder,
            Duration.ofMillis(200))) {
      reloader.reload();
      reloader.start();
      assertThat(holder.current().skill("one")).isPresent();

      Files.createDirectories(root.resolve("two"));
      Files.writeString(root.resolve("two/SKILL.md"), skillMd("two", "second"));
      await().atMost(Duration.ofSeconds(10)).until(() -> holder.current().skill("two").isPresent());

      Files.writeString(root.resolve("two/SKILL.md"), skillMd("two", "second, edited"));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  holder.current().skill("two").get().manifest().description().endsWith("edited"));

      Files.delete(root.resolve("one/SKILL.md"));
      await().atMost(Duration.ofSeconds(10)).until(() -> holder.current().skill("one").isEmpty());
      // Debouncing may fold several edits into one reload: the first load plus at least one more.
      assertThat(swaps.get()).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void reload_unchangedTree_doesNotSwap() {
    CatalogHolder holder = new CatalogHolder(Catalog.empty());
    AtomicInteger swaps = new AtomicInteger();
    holder.onSwap((a, b) -> swaps.incrementAndGet());
    CatalogReloader reloader =
        new CatalogReloader(
            new SkillLoader(LoaderOptions.DEFAULTS),
            List.of(SkillRoot.of(root, Scope.REPO)),
            holder,
            Duration.ofMillis(100));
    reloader.reload();
    reloader.reload();
    assertThat(swaps.get()).isEqualTo(1);
  }

  @Test
  void start_afterClose_neverWatches() throws Exception {
    Files.createDirectories(root.resolve("one"));
    Files.writeString(root.resolve("one/SKILL.md"), skillMd("one", "first"));
    CatalogHolder holder = new CatalogHolder(Catalog.empty());
    CatalogReloader reloader =
        new CatalogReloader(
            new SkillLoader(LoaderOptions.DEFAULTS),
            List.of(SkillRoot.of(root, Scope.REPO)),
            holder,
            Duration.ofMillis(50));
    reloader.reload();

    reloader.close();
    reloader.start();

    Files.createDirectories(root.resolve("two"));
    Files.writeString(root.resolve("two/SKILL.md"), skillMd("two", "second"));
    Thread.sleep(500);
    assertThat(holder.current().skill("two")).isEmpty();
  }
}
