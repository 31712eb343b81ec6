package dev.skillport.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Script results as upstream scripts write them, run with real interpreters: the envelope's {@code
 * success}, {@code message}, {@code error}, {@code prompt} and {@code context}, a failing script's
 * own message as the error text, rich content, and the {@code dcc_mcp_core} package on the import
 * path.
 */
class ScriptResultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] PNG =
      Base64.getDecoder()
          .decode(
              "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==");

  @TempDir static Path home;

  @TempDir Path dir;

  private ScriptToolRunner runner;

  /** The environment the server passes on; HOME is a folder of the test's own. */
  private static Map<String, String> serverEnv() {
    return Map.of("PATH", System.getenv("PATH"), "HOME", home.toString());
  }

  @BeforeEach
  void startRunner() {
    runner =
        new ScriptToolRunner(
            ScriptPolicy.defaults().withDefaultTimeout(Duration.ofSeconds(20)), serverEnv());
  }

  private ToolResult run(String name, String body) throws Exception {
    return run(runner, name, body, "{}");
  }

  private ToolResult run(ScriptToolRunner r, String name, String body, String args)
      throws Exception {
    Path script = Files.writeString(dir.resolve(name), body);
    return r.run(script, dir, JSON.readTree(args), null, ToolContext.NONE);
  }

  private static String text(ToolResult result, int index) {
    return ((Content.Text) result.content().get(index)).text();
  }

  @Test
  void upstreamFailureEnvelope_exitOne_isErrorWithTheScriptsMessage() throws Exception {
    ToolResult result =
        run(
            "fail.py",
            """
            import json, sys
            print(json.dumps({"success": False, "message": "No mesh named 'cube1' in the scene",
                              "error": "not_found", "prompt": "Call list_meshes first.",
                              "context": {"asked": "cube1"}}))
            sys.exit(1)
            """);

    assertThat(result.isError()).isTrue();
    assertThat(text(result, 0))
        .isEqualTo("No mesh named 'cube1' in the scene (not_found)\nCall list_meshes first.");
    assertThat(result.structured().get("success").asBoolean()).isFalse();
    assertThat(result.structured().at("/context/asked").asText()).isEqualTo("cube1");
    assertThat(result.structured().get("code").asText()).isEqualTo("SCRIPT_FAILED");
    assertThat(result.structured().get("hint").asText()).isEqualTo("Call list_meshes first.");
    assertThat(result.structured().get("exit_code").asInt()).isEqualTo(1);
  }

  @Test
  void failureEnvelope_exitZero_isStillAnError() throws Exception {
    ToolResult result =
        run("soft.sh", "echo '{\"success\": false, \"message\": \"Nothing selected\"}'\n");

    assertThat(result.isError()).isTrue();
    assertThat(text(result, 0)).isEqualTo("Nothing selected");
    assertThat(result.structured().has("exit_code")).isFalse();
  }

  @Test
  void failureWithPlainStdoutAndEmptyStderr_isThatStdout() throws Exception {
    ToolResult result = run("plain.sh", "echo 'render farm is offline'\nexit 2\n");

    assertThat(result.isError()).isTrue();
    assertThat(text(result, 0)).isEqualTo("render farm is offline");
    assertThat(result.structured().get("code").asText()).isEqualTo("SCRIPT_FAILED");
  }

  @Test
  void successEnvelope_isStructuredContentAndItsJsonText() throws Exception {
    ToolResult result =
        run(
            "ok.py",
            """
            import json
            print("some chatter first")
            print(json.dumps({"success": True, "message": "Created cube1",
                              "prompt": "Bevel it next.", "context": {"name": "cube1"}}))
            """);

    assertThat(result.isError()).isFalse();
    assertThat(result.structured())
        .isEqualTo(
            JSON.readTree(
                "{\"success\":true,\"message\":\"Created cube1\",\"prompt\":\"Bevel it next.\","
                    + "\"context\":{\"name\":\"cube1\"}}"));
    assertThat(JSON.readTree(text(result, 0))).isEqualTo(result.structured());
  }

  @Test
  void richContent_filesAndInlineData_becomeImageAudioAndResourceContent() throws Exception {
    Files.write(dir.resolve("frame.png"), PNG);
    Files.write(dir.resolve("beep.wav"), new byte[] {'R', 'I', 'F', 'F', 0, 0, 0, 0});
    Files.writeString(dir.resolve("report.csv"), "frame,ms\n1,40\n");
    String png64 = Base64.getEncoder().encodeToString(PNG);
    ToolResult result =
        run(
            "render.py",
            """
            import json
            print(json.dumps({"success": True, "message": "Rendered 1 frame",
              "content": [
                {"type": "image", "path": "frame.png"},
                {"type": "image", "data": "%s", "mimeType": "image/png"},
                {"type": "audio", "path": "beep.wav"},
                {"type": "resource", "path": "report.csv"},
                {"type": "resource", "resource": {"uri": "memo://1", "text": "hi"}},
                {"type": "image", "path": "missing.png"},
                {"type": "video", "path": "frame.png"}
              ]}))
            """
                .formatted(png64));

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().has("content")).isFalse();
    assertThat(JSON.readTree(text(result, 0)).get("message").asText())
        .isEqualTo("Rendered 1 frame");
    List<Content> content = result.content();
    assertThat(content.get(1)).isEqualTo(new Content.Image(png64, "image/png"));
    assertThat(content.get(2)).isEqualTo(new Content.Image(png64, "image/png"));
    assertThat(content.get(3)).isInstanceOf(Content.Audio.class);
    assertThat(((Content.Audio) content.get(3)).mimeType()).isEqualTo("audio/wav");
    Content.EmbeddedResource csv = (Content.EmbeddedResource) content.get(4);
    assertThat(csv.uri()).startsWith("file:/").endsWith("report.csv");
    assertThat(csv.mimeType()).isEqualTo("text/csv");
    assertThat(csv.text()).isEqualTo("frame,ms\n1,40\n");
    assertThat(content.get(5))
        .isEqualTo(new Content.EmbeddedResource("memo://1", "text/plain", "hi", null));
    assertThat(text(result, 6)).contains("item 5 was dropped").contains("missing.png");
    assertThat(text(result, 7)).contains("item 6 was dropped").contains("unknown type 'video'");
  }

  @Test
  void upstreamScript_importsTheCompatibilityPackage_andLeavesNoFolderBehind() throws Exception {
    String script =
        """
        from dcc_mcp_core.skill import skill_entry, skill_success, skill_error, run_main
        from dcc_mcp_core import image_content

        @skill_entry
        def main(name="cube", fail=False, **kwargs):
            if fail:
                return skill_error("Cannot create " + name, prompt="Pick another name.")
            return skill_success("Created " + name, content=[image_content(path="frame.png")],
                                 name=name)

        if __name__ == "__main__":
            run_main(main)
        """;
    Files.write(dir.resolve("frame.png"), PNG);
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    List<Path> before = packageFolders(tmp);

    ToolResult ok = run(runner, "create.py", script, "{\"name\":\"box\"}");
    ToolResult failed = run(runner, "create.py", script, "{\"fail\":true}");

    assertThat(ok.isError()).as(ok.toString()).isFalse();
    assertThat(ok.structured().at("/context/name").asText()).isEqualTo("box");
    assertThat(ok.content().get(1)).isInstanceOf(Content.Image.class);
    assertThat(failed.isError()).isTrue();
    assertThat(text(failed, 0)).isEqualTo("Cannot create cube\nPick another name.");
    assertThat(packageFolders(tmp)).isEqualTo(before);
    assertThat(dir.resolve("__pycache__")).doesNotExist();
  }

  @Test
  void compatibilityPackageTurnedOff_scriptCannotImportIt() throws Exception {
    ScriptToolRunner plain =
        new ScriptToolRunner(ScriptPolicy.defaults().withPythonCompat(false), serverEnv());

    ToolResult result = run(plain, "needs.py", "import dcc_mcp_core\nprint('{}')\n", "{}");

    assertThat(result.isError()).isTrue();
    assertThat(text(result, 0)).contains("ModuleNotFoundError").contains("dcc_mcp_core");
  }

  @Test
  void pythonScriptOfAnotherProduct_runsOnlyWithItsConfiguredInterpreter() throws Exception {
    Path script = Files.writeString(dir.resolve("where.py"), "import sys\nprint(sys.argv[0])\n");
    ScriptToolRunner configured =
        new ScriptToolRunner(
            ScriptPolicy.defaults().withDccPython(Map.of("Maya", "python3")), serverEnv());

    ToolResult refused =
        runner.run(script, dir, JSON.createObjectNode(), null, ToolContext.NONE, "maya");
    ToolResult ran =
        configured.run(script, dir, JSON.createObjectNode(), null, ToolContext.NONE, "maya");

    assertThat(runner.needsHost(script, "maya")).isTrue();
    assertThat(runner.needsHost(script, "python")).isFalse();
    assertThat(runner.needsHost(dir.resolve("x.sh"), "maya")).isFalse();
    assertThat(refused.isError()).isTrue();
    assertThat(refused.structured().get("code").asText()).isEqualTo("DCC_INTERPRETER_MISSING");
    assertThat(refused.structured().get("hint").asText()).contains("--dcc-python maya=");
    assertThat(configured.needsHost(script, "maya")).isFalse();
    assertThat(ran.isError()).as(ran.toString()).isFalse();
  }

  private static List<Path> packageFolders(Path tmp) throws Exception {
    if (!Files.isDirectory(tmp)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(p -> p.getFileName().toString().startsWith("skillport-py-"))
          .sorted()
          .toList();
    }
  }
}
