package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DoctorCommandTest {
  @TempDir Path dir;

  /** A skill with one Python script tool. */
  private Path pythonSkill(Path tree, String name) throws Exception {
    Path skill = Files.createDirectories(tree.resolve(name));
    Files.writeString(
        skill.resolve("SKILL.md"),
        "---\nname: "
            + name
            + "\ndescription: Counts things for the doctor's check.\n"
            + "metadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n\nBody.\n");
    Files.writeString(
        skill.resolve("tools.yaml"),
        "tools:\n  - name: count\n    description: Count.\n    source_file: scripts/count.py\n");
    Files.createDirectories(skill.resolve("scripts"));
    Files.writeString(skill.resolve("scripts/count.py"), "print('{}')\n");
    return skill;
  }

  /** A PATH folder holding executables named {@code names}. */
  private Path bin(String... names) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin-" + names.length));
    for (String name : names) {
      Path file = bin.resolve(name);
      Files.writeString(file, "#!/bin/sh\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return bin;
  }

  @Test
  void doctor_everythingPresent_oneOkLinePerCheckExitZero() throws Exception {
    pythonSkill(dir.resolve("skills"), "counter");
    Path bin = bin("python3", "blender");

    CliRun run =
        CliRun.execute(dir, Map.of("PATH", bin.toString()), "doctor", "--port", "0", "skills");

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines)
        .extracting(l -> l.split("\\s+")[1])
        .containsExactly("java", "skills", "python3", "plugins", "port", "store", "blender");
    assertThat(lines).allSatisfy(l -> assertThat(l).startsWith("ok  "));
    assertThat(run.out())
        .contains("1 skills under 1 root")
        .contains(bin.resolve("python3") + " (for 1 skill)")
        .contains(bin.resolve("blender") + " (from PATH)");
  }

  @Test
  void doctor_missingInterpreterASkillNeeds_failsWithTheFixExitOne() throws Exception {
    pythonSkill(dir.resolve("skills"), "counter");
    Path bin = bin("blender");

    CliRun run =
        CliRun.execute(dir, Map.of("PATH", bin.toString()), "doctor", "--port", "0", "skills");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .containsPattern(
            "(?m)^fail  python3 +not on PATH, and 1 skill run python3 scripts \\(counter\\);"
                + " install it or put it on PATH$");
  }

  @Test
  void doctor_noBlender_warnsOnlyAndExitsZero() throws Exception {
    pythonSkill(dir.resolve("skills"), "counter");
    Path bin = bin("python3");

    CliRun run =
        CliRun.execute(dir, Map.of("PATH", bin.toString()), "doctor", "--port", "0", "skills");

    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(run.out())
        .containsPattern(
            "(?m)^warn  blender +not found \\(PATH\\); only skills for Blender need it")
        .contains("apt-get install blender");
  }

  @Test
  void doctor_blenderNamedButMissing_fails() throws Exception {
    pythonSkill(dir.resolve("skills"), "counter");
    Path bin = bin("python3");

    CliRun run =
        CliRun.execute(
            dir,
            Map.of("PATH", bin.toString()),
            "doctor",
            "--port",
            "0",
            "--blender",
            dir.resolve("no-blender").toString(),
            "skills");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).containsPattern("(?m)^fail  blender +not found \\(--blender ");
  }

  @Test
  void doctor_portInUse_warnsWithTheFix() throws Exception {
    pythonSkill(dir.resolve("skills"), "counter");
    Path bin = bin("python3", "blender");
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));

      CliRun run =
          CliRun.execute(
              dir,
              Map.of("PATH", bin.toString()),
              "doctor",
              "--port",
              Integer.toString(taken.getLocalPort()),
              "skills");

      assertThat(run.exitCode()).isZero();
      assertThat(run.out())
          .containsPattern("(?m)^warn  port +127\\.0\\.0\\.1:" + taken.getLocalPort())
          .contains("give serve --port N");
    }
  }

  @Test
  void doctor_brokenPluginJar_failsNamingIt() throws Exception {
    pythonSkill(dir.resolve("skills"), "counter");
    Path bin = bin("python3", "blender");
    Path plugins = Files.createDirectories(dir.resolve("plugins"));
    Files.writeString(plugins.resolve("adapter.jar"), "not a jar");

    CliRun run =
        CliRun.execute(
            dir,
            Map.of("PATH", bin.toString()),
            "doctor",
            "--port",
            "0",
            "--plugins",
            plugins.toString(),
            "skills");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .containsPattern("(?m)^fail  plugins +adapter\\.jar \\(not a readable jar\\)");
  }
}
