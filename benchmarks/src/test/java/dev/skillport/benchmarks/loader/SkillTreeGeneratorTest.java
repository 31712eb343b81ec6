package dev.skillport.benchmarks.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillTreeGeneratorTest {

  @TempDir Path dir;

  @Test
  void write_twentySkills_loaderLoadsAllWithoutDiagnostics() throws IOException {
    GeneratedTree tree = SkillTreeGenerator.seeded(7).write(dir.resolve("tree"), 20);

    LoadResult result =
        new SkillLoader(LoaderOptions.DEFAULTS)
            .load(List.of(SkillRoot.of(tree.root(), Scope.REPO)));

    assertThat(result.diagnostics()).isEmpty();
    assertThat(result.skills())
        .extracting(Skill::name)
        .containsExactlyInAnyOrderElementsOf(tree.skillNames());
    assertThat(result.skills())
        .allSatisfy(
            skill -> {
              assertThat(skill.state()).isEqualTo(SkillState.AVAILABLE);
              assertThat(skill.tools()).hasSize(SkillTreeGenerator.TOOLS_PER_SKILL);
              assertThat(skill.groups()).hasSize(1);
              assertThat(skill.groups().get(0).tools()).hasSize(1);
              assertThat(skill.manifest().extensions().dcc()).isNotBlank();
              assertThat(skill.manifest().extensions().discovery().tags()).hasSize(3);
            });
  }

  @Test
  void write_twentySkills_strictLoaderAlsoFindsNothing() throws IOException {
    GeneratedTree tree = SkillTreeGenerator.seeded(11).write(dir.resolve("tree"), 20);

    LoadResult result =
        new SkillLoader(LoaderOptions.DEFAULTS.withStrict(true))
            .load(List.of(SkillRoot.of(tree.root(), Scope.REPO)));

    assertThat(result.diagnostics()).isEmpty();
    assertThat(result.skills()).hasSize(20);
  }

  @Test
  void write_sameSeed_writesIdenticalFiles() throws IOException {
    GeneratedTree first = SkillTreeGenerator.seeded(42).write(dir.resolve("a"), 12);
    GeneratedTree second = SkillTreeGenerator.seeded(42).write(dir.resolve("b"), 12);

    assertThat(second.skillNames()).isEqualTo(first.skillNames());
    assertThat(contents(second.root())).isEqualTo(contents(first.root()));
  }

  @Test
  void write_otherSeed_writesOtherSkills() throws IOException {
    GeneratedTree first = SkillTreeGenerator.seeded(1).write(dir.resolve("a"), 12);
    GeneratedTree second = SkillTreeGenerator.seeded(2).write(dir.resolve("b"), 12);

    assertThat(contents(second.root())).isNotEqualTo(contents(first.root()));
  }

  @Test
  void write_moreSkillsThanAFolderHolds_spreadsThemOverPackFolders() throws IOException {
    GeneratedTree tree = new SkillTreeGenerator(3, 10).write(dir.resolve("tree"), 25);

    Map<String, Long> skillsPerPack;
    try (Stream<Path> files = Files.walk(tree.root())) {
      skillsPerPack =
          files
              .filter(p -> p.getFileName().toString().equals("SKILL.md"))
              .collect(
                  Collectors.groupingBy(
                      p -> tree.root().relativize(p).getName(0).toString(),
                      TreeMap::new,
                      Collectors.counting()));
    }
    assertThat(skillsPerPack)
        .containsExactly(
            Map.entry("pack-000", 10L), Map.entry("pack-001", 10L), Map.entry("pack-002", 5L));
    assertThat(tree.skillNames()).doesNotHaveDuplicates().hasSize(25);
  }

  @Test
  void write_eachSkill_hasSiblingFilesAndOneScript() throws IOException {
    GeneratedTree tree = SkillTreeGenerator.seeded(5).write(dir.resolve("tree"), 3);

    for (String name : tree.skillNames()) {
      Path skill = tree.root().resolve("pack-000").resolve(name);
      assertThat(skill.resolve("SKILL.md")).isRegularFile();
      assertThat(skill.resolve("tools.yaml")).isRegularFile();
      assertThat(skill.resolve("groups.yaml")).isRegularFile();
      try (Stream<Path> scripts = Files.list(skill.resolve("scripts"))) {
        assertThat(scripts).hasSize(1);
      }
    }
  }

  @Test
  void delete_generatedTree_removesRoot() throws IOException {
    GeneratedTree tree = SkillTreeGenerator.seeded(9).write(dir.resolve("tree"), 4);

    tree.delete();

    assertThat(tree.root()).doesNotExist();
  }

  @Test
  void constructor_zeroSkillsPerFolder_isRejected() {
    assertThatThrownBy(() -> new SkillTreeGenerator(1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Every file below {@code root} by relative path, with its text. */
  private static Map<String, String> contents(Path root) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.filter(Files::isRegularFile).toList()) {
        files.put(root.relativize(p).toString(), Files.readString(p));
      }
    }
    return files;
  }
}
