package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
  void start_oneSkillOfManyEdited_readsThatFolderAndItsChangeOnly() throws Exception {
    for (int i = 0; i < 40; i++) {
      Files.createDirectories(root.resolve("pack/s" + i));
      Files.writeString(root.resolve("pack/s" + i + "/SKILL.md"), skillMd("s" + i, "plain"));
    }
    CatalogHolder holder = new CatalogHolder(Catalog.empty());
    List<CatalogReloader.Reload> reloads = new CopyOnWriteArrayList<>();
    try (CatalogReloader reloader =
        new CatalogReloader(
            new SkillLoader(LoaderOptions.DEFAULTS),
            List.of(SkillRoot.of(root, Scope.REPO)),
            holder,
            Duration.ofMillis(200))) {
      reloader.addListener(reloads::add);
      reloader.reload();
      reloader.start();
      assertThat(reloads)
          .singleElement()
          .extracting(CatalogReloader.Reload::foldersRead)
          .isEqualTo(40);

      Files.writeString(root.resolve("pack/s7/SKILL.md"), skillMd("s7", "edited"));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> holder.current().skill("s7").get().manifest().description().equals("edited"));
      CatalogReloader.Reload edit = reloads.get(reloads.size() - 1);
      assertThat(edit.swapped()).isTrue();
      assertThat(edit.foldersRead()).isEqualTo(1);
      assertThat(edit.skills()).isEqualTo(40);

      // A new skill folder is read (once more after it is watched); nothing else is.
      int before = reloads.size();
      Files.createDirectories(root.resolve("pack/late"));
      Files.writeString(root.resolve("pack/late/SKILL.md"), skillMd("late", "new"));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> holder.current().skill("late").isPresent());
      assertThat(reloads.subList(before, reloads.size()))
          .extracting(CatalogReloader.Reload::foldersRead)
          .allMatch(n -> n <= 1);
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
  void addListener_afterAReload_hearsItOnceThenEveryLaterOne() throws Exception {
    Files.createDirectories(root.resolve("one"));
    Files.writeString(root.resolve("one/SKILL.md"), skillMd("one", "first"));
    CatalogReloader reloader =
        new CatalogReloader(
            new SkillLoader(LoaderOptions.DEFAULTS),
            List.of(SkillRoot.of(root, Scope.REPO)),
            new CatalogHolder(Catalog.empty()),
            Duration.ofMillis(50));
    List<CatalogReloader.Reload> early = new CopyOnWriteArrayList<>();
    List<CatalogReloader.Reload> late = new CopyOnWriteArrayList<>();
    reloader.addListener(early::add);

    reloader.reload();
    reloader.addListener(late::add);
    Files.writeString(root.resolve("one/SKILL.md"), skillMd("one", "second"));
    reloader.reload();

    assertThat(early).hasSize(2);
    assertThat(late).containsExactlyElementsOf(early);
    assertThat(late.get(0).swapped()).isTrue();
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
