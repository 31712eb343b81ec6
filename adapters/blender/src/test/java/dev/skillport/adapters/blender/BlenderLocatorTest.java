package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Finding Blender and refusing programs that are not Blender, with stand-in programs. */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "the stand-in programs are shell scripts")
class BlenderLocatorTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path tmp;

  /** A program that prints {@code output} whatever it is asked. */
  private Path program(String dir, String name, String script) throws IOException {
    Path folder = Files.createDirectories(tmp.resolve(dir));
    Path file = folder.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + script + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  private Path printing(String dir, String name, String output) throws IOException {
    return program(dir, name, "printf '" + output + "\\n'");
  }

  @Test
  void locate_settingNamesAProgramThatIsNotBlender_isRefusedWithWhatItPrinted() throws Exception {
    Path python = printing("a", "python", "Python 3.11.2");
    BlenderLocator locator = new BlenderLocator(Map.of("PATH", ""), TIMEOUT);

    assertThatThrownBy(() -> locator.locate(python.toString()))
        .isInstanceOf(BlenderUnavailableException.class)
        .hasMessageContaining("(from --blender) is not Blender")
        .hasMessageContaining("'Python 3.11.2'");
  }

  @Test
  void locate_aRealProgramThatIsNotBlender_isRefused() {
    Path sh = Path.of("/bin/sh");
    BlenderLocator locator = new BlenderLocator(Map.of("PATH", "/bin:/usr/bin"), TIMEOUT);

    assertThatThrownBy(() -> locator.locate(sh.toString()))
        .isInstanceOf(BlenderUnavailableException.class)
        .hasMessageContaining("is not Blender");
  }

  @Test
  void locate_blenderOlderThanTheMinimum_isRefusedNamingTheVersion() throws Exception {
    Path old = printing("old", "blender", "Blender 2.79 (sub 0)");
    BlenderLocator locator =
        new BlenderLocator(Map.of(BlenderLocator.ENV, old.toString()), TIMEOUT);

    assertThatThrownBy(() -> locator.locate(null))
        .isInstanceOf(BlenderUnavailableException.class)
        .hasMessageContaining("(from SKILLPORT_BLENDER) is Blender 2.79")
        .hasMessageContaining("needs Blender 2.93 or later");
  }

  @Test
  void locate_settingWinsOverEnvironmentWhichWinsOverPath() throws Exception {
    Path fromSetting = printing("s", "blender", "Blender 4.2.1");
    Path fromEnv = printing("e", "blender", "Blender 3.6.0");
    Path onPath = printing("p", "blender", "Blender 3.4.1");
    Map<String, String> env =
        Map.of(BlenderLocator.ENV, fromEnv.toString(), "PATH", onPath.getParent().toString());
    BlenderLocator locator = new BlenderLocator(env, TIMEOUT);

    assertThat(locator.locate(fromSetting.toString()))
        .isEqualTo(new BlenderInstall(fromSetting, "4.2.1", "--blender"));
    assertThat(locator.locate(null))
        .isEqualTo(new BlenderInstall(fromEnv, "3.6.0", BlenderLocator.ENV));
    assertThat(
            new BlenderLocator(Map.of("PATH", onPath.getParent().toString()), TIMEOUT).locate(""))
        .isEqualTo(new BlenderInstall(onPath, "3.4.1", "PATH"));
  }

  @Test
  void locate_aBareNameInTheSetting_isLookedUpOnPath() throws Exception {
    Path named = printing("bin", "blender-3.6", "Blender 3.6.5");
    BlenderLocator locator =
        new BlenderLocator(Map.of("PATH", named.getParent().toString()), TIMEOUT);

    assertThat(locator.locate("blender-3.6").executable()).isEqualTo(named);
  }

  @Test
  void locate_nothingAnywhere_saysHowToInstallOrPointAtBlender() {
    BlenderLocator locator = new BlenderLocator(Map.of("PATH", tmp.toString()), TIMEOUT);

    assertThatThrownBy(() -> locator.locate(null))
        .isInstanceOf(BlenderUnavailableException.class)
        .hasMessageContaining("Blender was not found")
        .hasMessageContaining("--blender");
  }

  @Test
  void locate_missingFileOrFolder_isRefusedBeforeRunningAnything() throws Exception {
    BlenderLocator locator = new BlenderLocator(Map.of(), TIMEOUT);
    Path notExecutable = Files.writeString(tmp.resolve("blender.txt"), "Blender 3.4.1");

    assertThatThrownBy(() -> locator.locate(tmp.resolve("nope").toString()))
        .hasMessageContaining("does not exist");
    assertThatThrownBy(() -> locator.locate(tmp.toString()))
        .hasMessageContaining("is not an executable file");
    assertThatThrownBy(() -> locator.locate(notExecutable.toString()))
        .hasMessageContaining("is not an executable file");
  }

  @Test
  void locate_aProgramThatDoesNotAnswer_isStoppedAndRefused() throws Exception {
    Path hangs = program("h", "blender", "sleep 30");
    BlenderLocator locator = new BlenderLocator(Map.of(), Duration.ofMillis(500));

    long started = System.nanoTime();
    assertThatThrownBy(() -> locator.locate(hangs.toString()))
        .hasMessageContaining("did not answer '-b --version' within");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void locate_theInstalledBlender_reportsItsVersion() {
    BlenderInstall install = RealBlender.installOrSkip();

    assertThat(install.version()).matches("\\d+\\.\\d+(\\.\\d+)?");
    assertThat(install.executable()).isAbsolute();
  }
}
