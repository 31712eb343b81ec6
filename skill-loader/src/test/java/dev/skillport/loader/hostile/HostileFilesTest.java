package dev.skillport.loader.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.loader.testing.SkillFolder;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.SkillState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Special and huge files in every place the loader reads from. Each load must end (a FIFO opened
 * for reading would block it forever), reject or warn about only the hostile skill, and keep the
 * good skill beside it.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class HostileFilesTest {
  private static final SkillLoader LOADER = new SkillLoader(LoaderOptions.DEFAULTS);

  /** How long a load of a hostile folder may take. */
  static final Duration VERDICT_WITHIN = Duration.ofSeconds(2);

  @TempDir Path root;

  /**
   * Each place a skill's metadata points at a file: the key and value written under {@code
   * metadata.dcc-mcp}, and the file that becomes special.
   */
  static Stream<Arguments> siblingPositions() {
    return Stream.of(
        Arguments.of("tools: tools.yaml", "tools.yaml"),
        Arguments.of("groups: groups.yaml", "groups.yaml"),
        Arguments.of("prompts: prompts.yaml", "prompts.yaml"),
        Arguments.of("prompts: prompts/*.prompt.yaml", "prompts/a.prompt.yaml"),
        Arguments.of("resources: resources.yaml", "resources.yaml"),
        Arguments.of("workflows: workflows/*.workflow.yaml", "workflows/w.workflow.yaml"),
        Arguments.of("external-deps: deps.yaml", "deps.yaml"),
        Arguments.of("runtimes: runtimes.yaml", "runtimes.yaml"),
        Arguments.of("mcp: mcp.yaml", "mcp.yaml"),
        Arguments.of("tags: [x]", "metadata/depends.md"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("siblingPositions")
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void load_namedPipeAsSibling_rejectsOnlyThatSkillWithoutOpeningIt(String key, String file)
      throws Exception {
    Path hostile = SkillFolder.named("hostile").dccMcp(key).writeTo(root);
    mkfifo(hostile.resolve(file));
    SkillFolder.named("good").writeTo(root);

    LoadResult result = load();

    assertThat(result.skill("good").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
    assertThat(of(result, "hostile"))
        .anySatisfy(d -> assertThat(d.message()).contains("named pipe (FIFO)"));
    assertThat(of(result, "good")).isEmpty();
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void load_namedPipeAsSkillFile_isNoSkillAndOthersLoad() throws Exception {
    Path hostile = Files.createDirectories(root.resolve("hostile"));
    mkfifo(hostile.resolve("SKILL.md"));
    SkillFolder.named("good").writeTo(root);

    LoadResult result = load();

    assertThat(result.skills()).extracting(s -> s.name()).containsExactly("good");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void load_characterDeviceAsSibling_isNotRead() throws Exception {
    Path hostile = SkillFolder.named("hostile").dccMcp("tools: tools.yaml").writeTo(root);
    Path device = hostile.resolve("tools.yaml");
    // A device node needs privileges; where there are none, there is nothing to test.
    Process mknod = new ProcessBuilder("mknod", device.toString(), "c", "1", "5").start();
    assumeThat(mknod.waitFor(5, TimeUnit.SECONDS) && mknod.exitValue() == 0)
        .as("mknod is allowed")
        .isTrue();
    SkillFolder.named("good").writeTo(root);

    LoadResult result = load();

    assertThat(of(result, "hostile"))
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SIBLING_UNREADABLE);
              assertThat(d.message()).contains("character device");
            });
    assertThat(result.skill("good").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void load_linkToADeviceOutsideTheSkill_isRefusedAsAnEscape() throws Exception {
    Path hostile = SkillFolder.named("hostile").dccMcp("tools: tools.yaml").writeTo(root);
    Files.createSymbolicLink(hostile.resolve("tools.yaml"), Path.of("/dev/zero"));

    LoadResult result = load();

    assertThat(of(result, "hostile"))
        .extracting(Diagnostic::code)
        .contains(DiagnosticCode.SIBLING_ESCAPES);
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void load_twoGigabyteSparseSkillFile_isTooLargeAndOthersLoad() throws IOException {
    Path hostile = Files.createDirectories(root.resolve("hostile"));
    sparse(hostile.resolve("SKILL.md"), "---\nname: hostile\ndescription: d\n---\n", 2L << 30);
    SkillFolder.named("good").writeTo(root);

    LoadResult result = load();

    assertThat(of(result, "hostile"))
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.SKILL_MD_TOO_LARGE);
    assertThat(result.skill("good").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("siblingPositions")
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void load_twoGigabyteSparseSibling_isTooLargeWithoutReading(String key, String file)
      throws IOException {
    Path hostile = SkillFolder.named("hostile").dccMcp(key).writeTo(root);
    Files.createDirectories(hostile.resolve(file).getParent());
    sparse(hostile.resolve(file), "tools: []\n", 2L << 30);
    SkillFolder.named("good").writeTo(root);

    LoadResult result = load();

    assertThat(of(result, "hostile"))
        .anySatisfy(d -> assertThat(d.message()).contains(String.valueOf(2L << 30)));
    assertThat(result.skill("good").orElseThrow().state()).isEqualTo(SkillState.AVAILABLE);
  }

  /** Loads the root, failing when the verdict takes more than two seconds. */
  private LoadResult load() {
    return assertTimeoutPreemptively(
        VERDICT_WITHIN, () -> LOADER.load(List.of(SkillRoot.of(root, Scope.REPO))));
  }

  private static List<Diagnostic> of(LoadResult result, String skill) {
    return result.diagnostics().stream().filter(d -> skill.equals(d.skill())).toList();
  }

  static void mkfifo(Path path) throws Exception {
    Files.createDirectories(path.getParent());
    Files.deleteIfExists(path);
    Process p = new ProcessBuilder("mkfifo", path.toString()).start();
    assertThat(p.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("mkfifo " + path).isZero();
  }

  /** A file of {@code size} bytes that starts with {@code head} and costs no disk for the rest. */
  static void sparse(Path path, String head, long size) throws IOException {
    Files.deleteIfExists(path);
    try (FileChannel c =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            StandardOpenOption.SPARSE)) {
      c.write(ByteBuffer.wrap(head.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      c.write(ByteBuffer.wrap(new byte[] {'\n'}), size - 1);
    }
  }
}
