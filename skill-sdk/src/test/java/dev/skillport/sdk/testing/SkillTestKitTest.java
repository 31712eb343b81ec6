package dev.skillport.sdk.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.skillport.api.diagnostic.DiagnosticCode;
import dev.skillport.api.skill.ToolSpec;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.sdk.Arguments;
import dev.skillport.sdk.Results;
import dev.skillport.sdk.ToolHandlers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillTestKitTest {
  private static final ToolHandlerProvider GREETING =
      ToolHandlers.builder()
          .handler(
              "greeting.hello",
              inv -> Results.text("Hello, " + Arguments.of(inv).string("name") + "!"))
          .handler(
              "greeting.fail",
              inv -> {
                throw new IllegalStateException("broken on purpose");
              })
          .build();

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
        """);
    Files.writeString(
        skill.resolve("scripts/echo.sh"),
        """
        #!/bin/sh
        input=$(cat)
        printf '{"success": true, "got": %s}\\n' "$input"
        """);
    return skill;
  }

  @Test
  void load_validSkill_readsToolsWithoutErrors() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    assertThat(kit.skill()).isPresent();
    assertThat(kit.tools())
        .extracting(ToolSpec::name)
        .containsExactly("hello", "fail", "echo", "missing");
    assertThat(kit.diagnostics()).noneMatch(d -> d.severity().name().equals("ERROR"));
  }

  @Test
  void call_javaHandler_returnsItsResult() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("hello", Map.of("name", "Ada"));

    assertThat(result.isError()).isFalse();
    assertThat(result.content()).containsExactly(new Content.Text("Hello, Ada!"));
  }

  @Test
  void call_argumentsBreakSchema_throwsNamingTheViolation() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    assertThatThrownBy(() -> kit.call("hello", Map.of("name", 42)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hello")
        .hasMessageContaining("string");
  }

  @Test
  void call_handlerThrows_becomesErrorResult() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("fail", Map.of());

    assertThat(result.isError()).isTrue();
    assertThat(result.content()).containsExactly(new Content.Text("broken on purpose"));
  }

  @Test
  void call_scriptTool_runsScriptWithJsonOnStdin() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    ToolResult result = kit.call("echo", Map.of("word", "ping"));

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().path("got").path("word").asText()).isEqualTo("ping");
  }

  @Test
  void call_unregisteredHandler_throwsNamingTheId() throws IOException {
    SkillTestKit kit = SkillTestKit.load(writeSkill(), GREETING);

    assertThatThrownBy(() -> kit.call("missing", Map.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("greeting.nobody");
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

    assertThatThrownBy(() -> SkillTestKit.load(skill, GREETING, GREETING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("greeting.hello");
  }
}
