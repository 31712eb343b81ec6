package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;

class SkillportCommandTest {
  @TempDir Path dir;

  @Test
  void version_printsBuildVersionAndJava() {
    CliRun run = CliRun.execute(dir, "--version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .containsPattern("(?m)^skillport \\d+\\.\\d+\\.\\d+")
        .doesNotContain("${")
        .contains("Java " + System.getProperty("java.version"));
  }

  @Test
  void noSubcommand_usageErrorExitTwo() {
    CliRun run = CliRun.execute(dir);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().lines())
        .containsExactly(
            "skillport: Missing subcommand",
            "Commands: validate, list, serve, gateway, new, trust-bridge, call, doctor, store, completion. See 'skillport --help'.");
  }

  @Test
  void unknownSubcommand_usageErrorExitTwo() {
    CliRun run = CliRun.execute(dir, "serve-all");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().lines())
        .hasSize(2)
        .first()
        .asString()
        .startsWith("skillport: Unmatched argument at index 0: 'serve-all'")
        .contains("(did you mean serve");
  }

  @Test
  void badOptionValue_isTwoLinesNamingTheValueAndTheHelp() {
    CliRun run = CliRun.execute(dir, "serve", "--port", "abc");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines())
        .containsExactly(
            "skillport serve: Invalid value for option '--port': 'abc' is not an int",
            "See 'skillport serve --help'.");
  }

  @Test
  void mistypedOption_suggestsTheNearestOne() {
    CliRun run = CliRun.execute(dir, "list", "--formatt", "json", ".");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().lines())
        .containsExactly(
            "skillport list: Unknown option: '--formatt' (did you mean --format?)",
            "See 'skillport list --help'.");
  }

  @Test
  void help_onSubcommand_listsExitCodes() {
    CliRun run = CliRun.execute(dir, "validate", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("--strict").contains("--format").contains("Exit codes:");
  }

  @Test
  void commandLine_namedSubcommand_buildsThatOneAlone_otherwiseAll() {
    CliEnvironment env = CliEnvironment.system();
    CliOutput output = CliOutput.system();

    assertThat(
            SkillportCommand.commandLine(output, env, List.of("serve", "--stdio"))
                .getSubcommands()
                .keySet())
        .containsExactly("serve");
    assertThat(SkillportCommand.commandLine(output, env, List.of("--help")).getSubcommands())
        .containsOnlyKeys(
            "validate",
            "list",
            "serve",
            "gateway",
            "new",
            "trust-bridge",
            "call",
            "doctor",
            "store",
            "completion",
            "help");
    assertThat(SkillportCommand.commandLine(output, env, List.of("help", "serve")).getSubcommands())
        .hasSize(11);
    assertThat(SkillportCommand.commandLine(output, env).getSubcommands()).hasSize(11);
  }

  @Test
  void subcommandNames_areTheNamesTheirClassesDeclare() {
    assertThat(SkillportCommand.SUBCOMMANDS).hasSize(11);
    SkillportCommand.SUBCOMMANDS.forEach(
        (name, type) ->
            assertThat(type.getAnnotation(Command.class).name())
                .as(type.getName())
                .isEqualTo(name));
  }
}
