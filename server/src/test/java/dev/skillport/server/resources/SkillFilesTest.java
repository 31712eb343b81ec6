package dev.skillport.server.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.loader.files.RefusedFileException;
import dev.skillport.runtime.secrets.Redactor;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class SkillFilesTest {
  @TempDir Path tmp;
  private Path skill;

  @BeforeEach
  void skill() throws Exception {
    skill = Files.createDirectories(tmp.resolve("s"));
    Files.writeString(skill.resolve("SKILL.md"), "---\nname: s\ndescription: d\n---\n");
    SurfaceServer.write(skill.resolve("assets/a.txt"), "a");
    SurfaceServer.write(skill.resolve(".env"), "SECRET=1");
    SurfaceServer.write(tmp.resolve("outside.txt"), "outside");
  }

  private List<String> listed() {
    return SkillFiles.files(skill).stream().map(p -> SkillFiles.relative(skill, p)).toList();
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void files_directoryCycle_isWalkedOnce() throws Exception {
    Files.createSymbolicLink(skill.resolve("assets/up"), Path.of(".."));

    assertThat(listed()).containsExactly("SKILL.md", "assets/a.txt");
  }

  @Test
  void files_linksOut_areNotFollowed() throws Exception {
    Files.createSymbolicLink(skill.resolve("assets/usr"), Path.of("/usr"));
    Files.createSymbolicLink(skill.resolve("assets/out.txt"), tmp.resolve("outside.txt"));
    Files.createSymbolicLink(skill.resolve("assets/in.txt"), skill.resolve("assets/a.txt"));

    assertThat(listed()).containsExactly("SKILL.md", "assets/a.txt", "assets/in.txt");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void files_namedPipeAndHugeFile_areNotServed() throws Exception {
    Path fifo = skill.resolve("assets/pipe.txt");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    Path big = skill.resolve("assets/big.bin");
    try (FileChannel c =
        FileChannel.open(
            big,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            StandardOpenOption.SPARSE)) {
      c.write(ByteBuffer.wrap(new byte[] {1}), (2L << 30) - 1);
    }

    assertThat(listed()).containsExactly("SKILL.md", "assets/a.txt");
    assertThatThrownBy(() -> SkillFiles.read(fifo, new Redactor()))
        .isInstanceOfSatisfying(
            RefusedFileException.class, e -> assertThat(e.getMessage()).contains("named pipe"));
    assertThatThrownBy(() -> SkillFiles.digest(big, new Redactor()))
        .isInstanceOfSatisfying(
            RefusedFileException.class,
            e -> assertThat(e.reason()).isEqualTo(RefusedFileException.Reason.TOO_LARGE));
  }

  @Test
  void resolve_nulOrHiddenOrEscape_isEmpty() {
    assertThat(SkillFiles.resolve(skill, "assets/a\0.txt")).isEmpty();
    assertThat(SkillFiles.resolve(skill, ".env")).isEmpty();
    assertThat(SkillFiles.resolve(skill, "assets/../.env")).isEmpty();
    assertThat(SkillFiles.resolve(skill, "assets/a.txt")).contains(skill.resolve("assets/a.txt"));
  }

  @Test
  void resolveFrom_followsTheResourceRules() throws Exception {
    Path prompts = Files.createDirectories(skill.resolve("prompts"));
    Files.createSymbolicLink(prompts.resolve("out.txt"), tmp.resolve("outside.txt"));

    assertThat(SkillFiles.resolveFrom(skill, prompts, "../.env")).isEmpty();
    assertThat(SkillFiles.resolveFrom(skill, prompts, "../../s/.env")).isEmpty();
    assertThat(SkillFiles.resolveFrom(skill, prompts, "../../outside.txt")).isEmpty();
    assertThat(SkillFiles.resolveFrom(skill, prompts, "../assets/a.txt"))
        .contains(skill.resolve("assets/a.txt"));
    assertThat(SkillFiles.resolveFrom(skill, skill, ".env")).isEmpty();
    assertThat(SkillFiles.resolveFrom(skill, prompts, "out.txt")).isEmpty();
    assertThat(SkillFiles.resolveFrom(skill, prompts, "/etc/passwd")).isEmpty();
    assertThat(SkillFiles.resolveFrom(skill, skill, "assets/a.txt"))
        .contains(skill.resolve("assets/a.txt"));
    assertThat(SkillFiles.resolveFrom(skill, skill, "./assets/a.txt"))
        .contains(skill.resolve("assets/a.txt"));
  }

  @Test
  void digest_isTheSha256OfTheBytes_andFollowsChanges() throws Exception {
    Path a = skill.resolve("assets/a.txt");
    Redactor redactor = new Redactor();
    assertThat(SkillFiles.digest(a, redactor)).isEqualTo(SkillFiles.digest("a".getBytes()));

    Files.writeString(a, "changed, longer");

    assertThat(SkillFiles.digest(a, redactor))
        .isEqualTo(SkillFiles.digest("changed, longer".getBytes()));
  }
}
