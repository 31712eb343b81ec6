package dev.skillport.adapters.blender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.host.HostCall;
import dev.skillport.api.host.HostExecutor;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A skill written the way dcc-mcp-core's Blender skills are ({@code dcc_mcp_core.skill} helpers,
 * {@code @skill_entry def main(**kwargs)}, {@code run_main} under {@code __main__}) runs unchanged
 * in the adapter's Blender.
 */
class UpstreamStyleSkillTest {
  private static final Path SKILL =
      Path.of("src/test/resources/skills/blender-upstream-style").toAbsolutePath();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static BlenderAdapter adapter;
  private static HostExecutor executor;

  @BeforeAll
  static void start() throws Exception {
    BlenderInstall install = RealBlender.installOrSkip();
    adapter = new BlenderAdapter(Map.of(), Backoff.DEFAULT);
    adapter.configure(Map.of(BlenderAdapter.EXECUTABLE, install.executable().toString()));
    adapter.start();
    executor = adapter.mainThreadExecutor().orElseThrow();
  }

  @AfterAll
  static void stop() {
    if (adapter != null) {
      adapter.stop();
    }
  }

  private static ToolResult call(String tool, String args) throws Exception {
    return executor.execute(
        new HostCall(
            "blender-upstream-style",
            tool,
            SKILL.resolve("scripts").resolve(tool + ".py"),
            SKILL,
            JSON.readTree(args),
            Duration.ofSeconds(30),
            ToolContext.NONE));
  }

  private static String text(ToolResult r) {
    return r.content().stream()
        .filter(Content.Text.class::isInstance)
        .map(c -> ((Content.Text) c).text())
        .reduce("", String::concat);
  }

  @Test
  void upstreamScripts_returnTheirEnvelopesFromInsideBlender() throws Exception {
    ToolResult added = call("add_empty", "{\"name\": \"Anchor\", \"location\": [1, 2, 3]}");

    assertThat(added.isError()).as(text(added)).isFalse();
    JsonNode envelope = added.structured();
    assertThat(envelope.path("success").asBoolean()).isTrue();
    assertThat(envelope.path("message").asText()).isEqualTo("Created empty: Anchor");
    assertThat(envelope.path("prompt").asText()).contains("rename_object");
    assertThat(envelope.at("/context/location").toString()).isEqualTo("[1.0,2.0,3.0]");

    ToolResult renamed =
        call("rename_object", "{\"old_name\": \"Anchor\", \"new_name\": \"Pivot\"}");
    assertThat(renamed.structured().at("/context/object_name").asText()).isEqualTo("Pivot");

    ToolResult counted = call("count_objects", "{}");
    assertThat(counted.structured().at("/context/counts/EMPTY").asInt()).isEqualTo(1);
  }

  @Test
  void upstreamErrorEnvelope_isAToolErrorWithItsMessage() throws Exception {
    ToolResult missing = call("rename_object", "{\"old_name\": \"Nope\", \"new_name\": \"X\"}");

    assertThat(missing.isError()).isTrue();
    assertThat(text(missing)).startsWith("Object not found: Nope (KeyError)");
    assertThat(missing.structured().at("/context/possible_solutions/0").asText())
        .contains("count_objects");
  }
}
