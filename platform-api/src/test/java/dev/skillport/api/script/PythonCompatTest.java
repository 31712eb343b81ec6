package dev.skillport.api.script;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs scripts in the style dcc-mcp-core documents against the package, with a real python3. */
class PythonCompatTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Path lib;

  @BeforeEach
  void write() throws IOException {
    lib = PythonCompat.writeTo(tmp.resolve("lib"));
  }

  private record Run(int exit, JsonNode result, String stderr) {}

  private Run run(String script, String stdin, String... args) throws Exception {
    Path file = tmp.resolve("script.py");
    Files.writeString(file, script);
    List<String> command = new ArrayList<>(List.of("python3", file.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("PYTHONPATH", lib.toString());
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    Path out = tmp.resolve("out");
    Path err = tmp.resolve("err");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String text = Files.readString(out).strip();
    String[] lines = text.split("\n");
    return new Run(p.exitValue(), JSON.readTree(lines[lines.length - 1]), Files.readString(err));
  }

  @Test
  void runMain_entryWithArgumentsFromStdin_printsSuccessEnvelopeAndExitsZero() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core.skill import skill_success, skill_entry, run_main

            @skill_entry
            def main(radius=1.0, name="sphere", **kwargs):
                print("creating", name)
                return skill_success("Created " + name, prompt="Call bevel next.", radius=radius)

            if __name__ == "__main__":
                run_main(main)
            """,
            "{\"radius\": 2.5, \"name\": \"ball\"}");

    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.result())
        .isEqualTo(
            JSON.readTree(
                "{\"success\":true,\"message\":\"Created ball\",\"prompt\":\"Call bevel next.\","
                    + "\"context\":{\"radius\":2.5}}"));
  }

  @Test
  void runMain_raisingEntry_printsFailureEnvelopeAndExitsOne() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core.skill import skill_entry, run_main

            @skill_entry
            def main(**kwargs):
                raise ValueError("no mesh selected")

            run_main(main)
            """,
            "");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.result().get("success").asBoolean()).isFalse();
    assertThat(r.result().get("message").asText()).isEqualTo("ValueError: no mesh selected");
    assertThat(r.result().at("/context/error_type").asText()).isEqualTo("ValueError");
    assertThat(r.result().at("/context/traceback").asText()).contains("no mesh selected");
  }

  @Test
  void runMain_missingModule_saysWhichModule() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core.skill import skill_entry, run_main

            @skill_entry
            def main(**kwargs):
                import maya.cmds
                return "never"

            run_main(main)
            """,
            "{}");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.result().get("message").asText())
        .startsWith("Required module not available")
        .contains("maya");
  }

  @Test
  void runMain_withoutStdin_readsFlags_andHelpersShapeTheEnvelope() throws Exception {
    Run r =
        run(
            """
            from dcc_mcp_core import skill_error, run_main, image_content

            def main(count=0, label="", verbose=False):
                return skill_error(
                    "only %d of %s" % (count, label),
                    possible_solutions=["select more"],
                    content=[image_content(path="a.png")],
                    verbose=verbose,
                )

            run_main(main)
            """,
            "", "--count", "3", "--label", "cubes", "--verbose");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.result())
        .isEqualTo(
            JSON.readTree(
                "{\"success\":false,\"message\":\"only 3 of cubes\","
                    + "\"prompt\":\"Check the error details and try again.\","
                    + "\"error\":\"only 3 of cubes\","
                    + "\"context\":{\"verbose\":true,\"possible_solutions\":[\"select more\"]},"
                    + "\"content\":[{\"type\":\"image\",\"path\":\"a.png\"}]}"));
  }

  @Test
  void toolResult_andPlainReturnValues_becomeEnvelopes() throws Exception {
    Run r =
        run(
            """
            import json
            from dcc_mcp_core import ToolResult, skill_entry, skill_warning
            from dcc_mcp_core.result_envelope import success_result

            @skill_entry
            def text():
                return "plain text"

            @skill_entry
            def number():
                return 7

            print(json.dumps([
                ToolResult.ok("Loaded", name="x").to_dict(),
                ToolResult.fail("Missing", error="not_found").to_dict(),
                success_result("fine").to_dict(),
                skill_warning("partly", warning="2 skipped"),
                text(),
                number(),
            ]))
            """,
            "");

    assertThat(r.exit()).isZero();
    assertThat(r.result())
        .isEqualTo(
            JSON.readTree(
                """
                [{"success":true,"message":"Loaded","context":{"name":"x"}},
                 {"success":false,"message":"Missing","error":"not_found"},
                 {"success":true,"message":"fine"},
                 {"success":true,"message":"partly","context":{"warning":"2 skipped"}},
                 {"success":true,"message":"plain text"},
                 {"success":true,"message":"Done.","context":{"result":7}}]"""));
  }
}
