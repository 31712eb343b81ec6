package dev.skillport.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.loader.testing.SkillFolder;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load with a {@link SkillFolderCache} reads only the folders that changed, and its result is
 * what a fresh load of the same tree gives.
 */
class SkillFolderCacheTest {
  private static final SkillLoader LOADER = new SkillLoader(LoaderOptions.DEFAULTS);

  @TempDir Path tmp;
  private Path team;
  private Path repo;
  private List<SkillRoot> roots;
  private final SkillFolderCache cache = new SkillFolderCache();

  @BeforeEach
  void tree() {
    team = tmp.resolve("team");
    repo = tmp.resolve("repo");
    SkillFolder.named("base").description("the base").writeTo(repo);
    SkillFolder.named("user").depends("base").writeTo(repo);
    SkillFolder.named("other").writeTo(repo.resolve("pack"));
    SkillFolder.named("shared").description("repo copy").writeTo(repo);
    SkillFolder.named("shared").description("team copy").writeTo(team);
    roots = List.of(SkillRoot.of(team, Scope.TEAM), SkillRoot.of(repo, Scope.REPO));
  }

  /** Loads through the cache and checks the result against a fresh load. */
  private LoadResult load() {
    LoadResult cached = LOADER.load(roots, cache);
    LoadResult fresh = LOADER.load(roots);
    assertThat(summary(cached)).isEqualTo(summary(fresh));
    assertThat(cached.diagnostics()).isEqualTo(fresh.diagnostics());
    return cached;
  }

  private static List<String> summary(LoadResult r) {
    return r.skills().stream()
        .map(
            s ->
                s.name()
                    + " "
                    + s.state()
                    + " "
                    + s.scope()
                    + " "
                    + s.manifest().description()
                    + " "
                    + s.location().directory())
        .toList();
  }

  @Test
  void load_firstTime_readsEveryFolder() {
    load();
    assertThat(cache.lastReads()).isEqualTo(5);
    assertThat(cache.lastReused()).isZero();
    assertThat(cache.size()).isEqualTo(5);
  }

  @Test
  void load_nothingChanged_readsNothing() {
    LoadResult first = load();
    LoadResult second = load();
    assertThat(cache.lastReads()).isZero();
    assertThat(cache.lastReused()).isEqualTo(5);
    assertThat(second.skills()).isEqualTo(first.skills());
  }

  @Test
  void load_oneFileEdited_readsThatFolderOnly() throws IOException {
    load();
    Path skillMd = repo.resolve("pack/other/SKILL.md");
    Files.writeString(
        skillMd, Files.readString(skillMd).replace("description:", "description: edited"));
    cache.invalidate(List.of(skillMd));
    LoadResult after = load();
    assertThat(cache.lastReads()).isEqualTo(1);
    assertThat(after.skill("other").orElseThrow().manifest().description()).startsWith("edited");
  }

  @Test
  void load_dependencyDeleted_readsNothingAndTheDependantWaits() throws IOException {
    load();
    Path base = repo.resolve("base");
    deleteTree(base);
    cache.invalidate(List.of(base));
    LoadResult after = load();
    assertThat(cache.lastReads()).isZero();
    assertThat(after.skill("user").orElseThrow().state()).isEqualTo(SkillState.PENDING_DEPS);
    assertThat(cache.size()).isEqualTo(4);
  }

  @Test
  void load_newFolderAndHigherScopeCopyRemoved_readsTheNewOneOnly() throws IOException {
    load();
    SkillFolder.named("fresh").writeTo(repo.resolve("pack"));
    Path teamShared = team.resolve("shared");
    deleteTree(teamShared);
    cache.invalidate(List.of(repo.resolve("pack/fresh"), teamShared));
    LoadResult after = load();
    assertThat(cache.lastReads()).isEqualTo(1);
    assertThat(after.skill("fresh")).isPresent();
    assertThat(after.skill("shared").orElseThrow().manifest().description()).isEqualTo("repo copy");
    assertThat(after.skills()).extracting(Skill::state).doesNotContain(SkillState.SHADOWED);
  }

  @Test
  void invalidate_aFolderAboveSkills_forgetsEverySkillBelowIt() {
    load();
    cache.invalidate(List.of(repo.resolve("pack")));
    load();
    assertThat(cache.lastReads()).isEqualTo(1);
    cache.invalidate(List.of(repo));
    load();
    assertThat(cache.lastReads()).isEqualTo(4);
  }

  @Test
  void load_rootsReordered_readsAgainWhatChangedItsPlace() {
    load();
    roots = List.of(SkillRoot.of(repo, Scope.REPO), SkillRoot.of(team, Scope.TEAM));
    LoadResult after = load();
    // Every skill's root order changed, so every skill is read again with its new place.
    assertThat(cache.lastReads()).isEqualTo(5);
    assertThat(after.diagnostics()).extracting(Diagnostic::skill).contains("shared");
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
