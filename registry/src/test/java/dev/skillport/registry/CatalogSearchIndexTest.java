package dev.skillport.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.registry.search.SkillQuery;
import dev.skillport.registry.search.SkillSearchIndex;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CatalogSearchIndexTest {
  private final Catalog catalog =
      Catalog.of(
          1,
          List.of(
              TestSkills.named("maya-geometry").tags("mesh").tool("create_cube").build(),
              TestSkills.named("image-tools").tags("image").tool("resize_image").build()),
          List.of());

  @Test
  void searchIndex_built_findsTheSnapshotsSkills() {
    List<String> names =
        catalog
            .searchIndex()
            .search(new SkillQuery("image", List.of(), null, null, 20, false))
            .stream()
            .map(hit -> hit.skill().name())
            .toList();

    assertThat(names).containsExactly("image-tools");
  }

  @Test
  void searchIndex_askedFromManyThreadsAtOnce_isBuiltOnceAndShared() {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<SkillSearchIndex>> callers =
        IntStream.range(0, 8)
            .mapToObj(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> {
                          try {
                            start.await();
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          }
                          return catalog.searchIndex();
                        },
                        threads))
            .toList();
    start.countDown();

    SkillSearchIndex first = callers.get(0).join();
    assertThat(callers).allSatisfy(c -> assertThat(c.join()).isSameAs(first));
    assertThat(catalog.searchIndex()).isSameAs(first);
    threads.shutdown();
  }
}
