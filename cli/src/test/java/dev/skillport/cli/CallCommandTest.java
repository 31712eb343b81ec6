package dev.skillport.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /**
   * A skill whose {@code echo} tool prints its arguments back, reports progress and a log line, and
   * fails when asked to.
   */
  private void echoSkill() throws Exception {
    Path skill = Files.createDirectories(dir.resolve("skills/echoer"));
    Files.writeString(
        skill.resolve("SKILL.md"),
        "---\nname: echoer\ndescription: Echoes its arguments back for the call command.\n"
            + "metadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\n\nBody.\n");
    Files.writeString(
        skill.resolve("tools.yaml"),
        "tools:\n"
            + "  - name: echo\n"
            + "    description: Echo the arguments.\n"
            + "    source_file: scripts/echo.py\n"
            + "    input_schema:\n"
            + "      type: object\n"
            + "      properties:\n"
            + "        n: {type: integer}\n"
            + "        word: {type: string}\n"
            + "        fail: {type: boolean}\n");
    Files.createDirectories(skill.resolve("scripts"));
    Files.writeString(
        skill.resolve("scripts/echo.py"),
        "import json, sys\n"
            + "args = json.load(sys.stdin)\n"
            + "print('::progress 1 2 halfway', file=sys.stderr)\n"
            + "if args.get('fail'):\n"
            + "    print(json.dumps({'success': False, 'message': 'asked to fail'}))\n"
            + "    sys.exit(1)\n"
            + "print(json.dumps({'success': True, 'echo': args}))\n");
  }

  @Test
  void call_inProcess_printsTheStructuredResultAndProgressOnStderr() throws Exception {
    echoSkill();

    CliRun run =
        CliRun.execute(
            dir,
            "call",
            "echoer__echo",
            "--skills",
            "skills",
            "--arg",
            "n=3",
            "--json",
            "{\"word\":\"from-json\"}");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode result = JSON.readTree(run.out());
    assertThat(result.path("success").asBoolean()).isTrue();
    assertThat(result.path("echo").path("n").isInt()).isTrue();
    assertThat(result.path("echo").path("n").asInt()).isEqualTo(3);
    assertThat(result.path("echo").path("word").asText()).isEqualTo("from-json");
    assertThat(run.err()).contains("progress 1.0/2.0 halfway");
  }

  @Test
  void call_toolFails_exitOneWithTheFailureOnStdout() throws Exception {
    echoSkill();

    CliRun run =
        CliRun.execute(dir, "call", "echoer__echo", "--skills", "skills", "--arg", "fail=true");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("asked to fail");
  }

  @Test
  void call_argumentsBreakingTheSchema_exitOneWithInvalidArguments() throws Exception {
    echoSkill();

    CliRun run =
        CliRun.execute(dir, "call", "echoer__echo", "--skills", "skills", "--arg", "n=three");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("INVALID_ARGUMENTS");
  }

  @Test
  void call_unknownSkillOrTool_exitOneNamingWhatExists() throws Exception {
    echoSkill();

    CliRun skill = CliRun.execute(dir, "call", "nobody__echo", "--skills", "skills");
    CliRun tool = CliRun.execute(dir, "call", "echoer__shout", "--skills", "skills");

    assertThat(skill.exitCode()).isEqualTo(1);
    assertThat(skill.err()).contains("no skill 'nobody'");
    assertThat(tool.exitCode()).isEqualTo(1);
    assertThat(tool.err()).contains("has no tool 'shout'; its tools: echo");
  }

  @Test
  void call_badNameArgOrJson_usageErrorInTwoLines() throws Exception {
    echoSkill();

    for (String[] args :
        new String[][] {
          {"call", "echo", "--skills", "skills"},
          {"call", "echoer__echo", "--skills", "skills", "--arg", "novalue"},
          {"call", "echoer__echo", "--skills", "skills", "--json", "{nope"},
          {"call", "echoer__echo", "--skills", "skills", "--json", "[1]"},
          {"call", "echoer__echo", "--skills", "missing"}
        }) {
      CliRun run = CliRun.execute(dir, args);
      assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(run.err().lines()).as(run.err()).hasSize(2);
      assertThat(run.out()).isEmpty();
    }
  }

  @Test
  void call_unreachableUrl_exitOneSayingSo() {
    CliRun run = CliRun.execute(dir, "call", "a__b", "--url", "http://127.0.0.1:1/mcp");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("cannot reach http://127.0.0.1:1/mcp");
  }
}
