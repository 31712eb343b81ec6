package dev.skillport.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.runtime.ScriptPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillTestKitTest {
  private static final ToolHandlerProvider GREETING =
      () ->
          Map.of(
              "greeting.hello",
              inv -> ToolResult.text("Hello, " + inv.arguments().path("name").asText() + "!"),
              "greeting.fail",
              inv -> {
                throw new IllegalStateException("broken on purpose");
              },
              "greeting.stats",
              inv ->
                  ToolResult.structured(
                      JsonNodeFactory.instance.objectNode().put("count", "many")));

  @TempDir Path dir;

  private Path writeSkill() throws IOException {
    Path skill = dir.resolve("greeting");
    Files.createDirectories(skill.resolve("scripts"));
    Files.writeString(
        skill.resolve("SKILL.md"),
        """
        ---
        name: greeting
        description: Greets people by name. Use when the user wants a greeting.
        metadata:
          dcc-mcp:
            tools: tools.yaml
        ---
        # Greeting
        """);
    Files.writeString(
        skill.resolve("tools.yaml"),
        """
        tools:
          - name: hello
            description: Greet someone.
            handler: greeting.hello
            input_schema:
              type: object
              properties:
                name: {type: string}
              required: [name]
          - name: fail
            description: Always fails.
            handler: greeting.fail
          - name: echo
            description: Echo the arguments back.
            source_file: scripts/echo.sh
          - name: missing
            description: Bound to a handler nobody registers.
            handler: greeting.nobody
          - name: env
            description: Names the environment variables it sees.
            source_file: scripts/env.sh
          - name: stats
            description: Counts, breaking its own output schema.
            handler: greeting.stats
            output_schema:
              type: object
              properties:
                count: {type: integer}
              required: [count]
        """);
    Files.writeString(
        skill.resolve("scripts/echo.sh"),
        """
        #!/bin/sh
        input=$(cat)
        printf '{"success": true, "got": %s, "flags": "%s"}\\n' "$input" "$*"
        """);
    Files.writeString(
        skill.resolve("scripts/env.sh"),
        """
        #!/bin/sh
        cat >/dev/null
        printf '{"success": true, "names": "%s"}\\n' "$(env | cut -d= -f1 | tr '\\n' ' ')"
        """);
    return skill;
  }

  @Test
  void load_validSkill_readsToolsWithoutErrors() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    assertThat(kit.skill()).isPresent();
    assertThat(kit.tools())
        .extracting(ToolSpec::name)
        .containsExactly("hello", "fail", "echo", "missing", "env", "stats");
    // As on the server, the one tool whose handler nobody registers is reported at load.
    assertThat(kit.diagnostics())
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.HANDLER_NOT_REGISTERED);
    assertThat(kit.diagnostics().get(0).message()).contains("greeting.nobody");
    assertThat(kit.loadResult().diagnostics()).isEmpty();
  }

  @Test
  void call_javaHandler_returnsItsResult() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("hello", Map.of("name", "Ada"));

    assertThat(result.isError()).isFalse();
    assertThat(result.content()).containsExactly(new Content.Text("Hello, Ada!"));
  }

  @Test
  void call_argumentsBreakSchema_theServersInvalidArgumentsFailure() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("hello", Map.of("name", 42));

    assertThat(result.isError()).isTrue();
    assertThat(result.structured().path("code").asText()).isEqualTo("INVALID_ARGUMENTS");
    assertThat(result.structured().path("message").asText()).contains("string");
  }

  @Test
  void call_resultBreaksOutputSchema_theServersOutputSchemaMismatchFailure() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("stats", Map.of());

    assertThat(result.isError()).isTrue();
    assertThat(result.structured().path("code").asText()).isEqualTo("OUTPUT_SCHEMA_MISMATCH");
    assertThat(result.structured().path("message").asText()).contains("count");
  }

  @Test
  void call_handlerThrows_theServersHandlerFailedFailure() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("fail", Map.of());

    assertThat(result.isError()).isTrue();
    assertThat(result.structured().path("code").asText()).isEqualTo("HANDLER_FAILED");
    assertThat(result.content())
        .containsExactly(
            new Content.Text("HANDLER_FAILED: IllegalStateException: broken on purpose"));
  }

  @Test
  void call_scriptTool_runsScriptWithJsonOnStdin() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("echo", Map.of("word", "ping"));

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().path("got").path("word").asText()).isEqualTo("ping");
    // The server's runner also passes each argument as a flag.
    assertThat(result.structured().path("flags").asText()).isEqualTo("--word ping");
  }

  @Test
  void call_scriptTool_seesOnlyTheEnvironmentTheServerPassesOn() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("env", Map.of());

    assertThat(result.isError()).isFalse();
    List<String> seen = List.of(result.structured().path("names").asText().strip().split(" "));
    // This JVM's own variables that the server does not pass on stay out, as on a server.
    List<String> withheld =
        System.getenv().keySet().stream()
            .filter(n -> !ScriptPolicy.BASE_ENV.contains(n))
            .filter(n -> !n.startsWith("PYTHON"))
            // The shell sets these itself.
            .filter(n -> !List.of("PWD", "OLDPWD", "SHLVL", "_").contains(n))
            .toList();
    assertThat(withheld).isNotEmpty();
    assertThat(seen).contains("PATH").doesNotContainAnyElementsOf(withheld);
  }

  @Test
  void call_unregisteredHandler_theServersNoHandlerFailure() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("missing", Map.of());

    assertThat(result.isError()).isTrue();
    assertThat(result.structured().path("code").asText()).isEqualTo("NO_HANDLER");
    assertThat(result.structured().path("message").asText()).contains("greeting.nobody");
  }

  @Test
  void call_unknownTool_throwsListingTools() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    assertThatThrownBy(() -> kit.call("nope", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hello");
  }

  @Test
  void load_folderWithoutSkillMd_reportsDiagnosticAndNoTools() {
    SkillTestKit kit = SkillTestKit.load(dir, GREETING);

    assertThat(kit.skill()).isEmpty();
    assertThat(kit.tools()).isEmpty();
    assertThat(kit.diagnostics())
        .extracting(d -> d.code())
        .contains(DiagnosticCode.SKILL_MD_MISSING);
  }

  @Test
  void load_sameHandlerIdTwice_refused() throws IOException {
    Path skill = writeSkill();

    // The provider's map has no order, so either of its ids is the first one seen twice.
    assertThatThrownBy(() -> SkillTestKit.load(skill, GREETING, GREETING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("handler id 'greeting\\.(hello|fail|stats)' is provided twice");
  }
}
