package dev.skillport.samples.guide;

import static org.assertj.core.api.Assertions.assertThat;

import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.model.skill.ToolSpec;
import dev.skillport.testkit.SkillTestKit;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

// docs:begin test
/** The greeting skill read by the real loader, its tools called in-process. */
class GreetingSkillTest {
  private static final Path SKILL = Path.of("guide/greeting");
  private final SkillTestKit kit =
      SkillTestKit.load(SKILL, LoaderOptions.DEFAULTS.withStrict(true), new GreetingHandlers());

  @Test
  void load_strict_nothingToReport() {
    assertThat(kit.diagnostics()).isEmpty();
    assertThat(kit.tools()).extracting(ToolSpec::name).containsExactly("hello", "shout");
  }

  @Test
  void hello_javaHandler_greetsByName() {
    ToolResult result = kit.call("hello", Map.of("name", "Ada", "polite", true));

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().get("greeting").asText()).isEqualTo("Good day, Ada!");
  }

  @Test
  void hello_emptyName_refusedByItsInputSchema() {
    ToolResult result = kit.call("hello", Map.of("name", ""));

    assertThat(result.isError()).isTrue();
    assertThat(result.structured().get("code").asText()).isEqualTo("INVALID_ARGUMENTS");
  }

  @Test
  void shout_script_printsItsEnvelope() {
    ToolResult result = kit.call("shout", Map.of("name", "Ada"));

    assertThat(result.isError()).isFalse();
    assertThat(result.structured().get("message").asText()).isEqualTo("HELLO, ADA!");
    assertThat(result.structured().get("context").get("name").asText()).isEqualTo("Ada");
  }
}
// docs:end test
