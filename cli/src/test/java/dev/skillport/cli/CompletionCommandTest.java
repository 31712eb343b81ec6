package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletionCommandTest {
  @TempDir Path dir;

  @Test
  void bash_scriptSourcedInBash_completesCommandsOptionsAndValues() throws Exception {
    CliRun run = CliRun.execute(dir, "completion", "bash");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Path script = dir.resolve("skillport.bash");
    Files.writeString(script, run.out());

    assertThat(complete(script, "skillport se")).contains("serve");
    assertThat(complete(script, "skillport serve --tool-l")).contains("--tool-listing");
    // Enum values are offered as picocli names them; the command line takes any case.
    assertThat(complete(script, "skillport list --format ").toLowerCase(Locale.ROOT))
        .contains("table", "json")
        .doesNotContain("text");
    assertThat(complete(script, "skillport list --log-format ").toLowerCase(Locale.ROOT))
        .contains("text", "json")
        .doesNotContain("table");
    assertThat(complete(script, "skillport completion ").lines()).contains("bash", "zsh", "fish");
  }

  @Test
  void zsh_isTheBashScriptThatLoadsZshsBashCompletionLayer() {
    CliRun zsh = CliRun.execute(dir, "completion", "zsh");

    assertThat(zsh.exitCode()).isZero();
    assertThat(zsh.out()).isEqualTo(CliRun.execute(dir, "completion", "bash").out());
    assertThat(zsh.out()).contains("bashcompinit");
  }

  @Test
  void fish_oneCompleteLinePerCommandAndOption() {
    CliRun run = CliRun.execute(dir, "completion", "fish");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines())
        .anyMatch(l -> l.startsWith("complete -c skillport -n __fish_use_subcommand -a serve -d '"))
        .anyMatch(
            l ->
                l.startsWith(
                    "complete -c skillport -n '__fish_seen_subcommand_from serve' -l port -r -d"))
        .anyMatch(
            l ->
                l.startsWith(
                    "complete -c skillport -n '__fish_seen_subcommand_from list' -l format -r -a"
                        + " 'table json'"))
        .anyMatch(
            l ->
                l.startsWith("complete -c skillport -n '__fish_seen_subcommand_from new' -a skill"))
        .allMatch(l -> l.startsWith("#") || l.startsWith("complete -c skillport "));
  }

  @Test
  void unknownShell_usageError() {
    CliRun run = CliRun.execute(dir, "completion", "powershell");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().lines()).hasSize(2);
  }

  /** What bash's completion offers for {@code line} (the cursor at its end), one word a line. */
  private String complete(Path script, String line) throws Exception {
    String words = line.endsWith(" ") ? line + "''" : line;
    String program =
        "source '"
            + script
            + "'\n"
            + "COMP_WORDS=("
            + words
            + ")\n"
            + "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
            + "COMP_LINE='"
            + line
            + "'\nCOMP_POINT=${#COMP_LINE}\n"
            + "_complete_skillport skillport\n"
            + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
    Process bash = new ProcessBuilder("bash", "-c", program).redirectErrorStream(true).start();
    bash.getOutputStream().close();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }
}
