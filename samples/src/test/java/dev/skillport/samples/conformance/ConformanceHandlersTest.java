package dev.skillport.samples.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.Content;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.Skill;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.model.skill.ToolBinding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ConformanceHandlersTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SAMPLES =
      Path.of(System.getProperty("skillport.conformance", "conformance"));

  private static Map<String, ToolHandler> serviceLoaded() {
    Map<String, ToolHandler> all = new HashMap<>();
    for (ToolHandlerProvider p : ServiceLoader.load(ToolHandlerProvider.class)) {
      all.putAll(p.handlers());
    }
    return all;
  }

  private static ToolResult call(String tool, String args, ToolContext ctx) throws Exception {
    ToolHandler handler = serviceLoaded().get(ConformanceHandlers.PREFIX + tool);
    assertThat(handler).as(tool).isNotNull();
    return handler.call(new ToolInvocation("mcp-conformance", tool, JSON.readTree(args), ctx));
  }

  /** Records what a handler reports and answers client requests with {@code reply}. */
  static final class RecordingContext implements ToolContext {
    final List<String> events = new ArrayList<>();
    final List<JsonNode> requests = new ArrayList<>();
    final boolean capable;
    final JsonNode reply;

    RecordingContext(boolean capable, JsonNode reply) {
      this.capable = capable;
      this.reply = reply;
    }

    @Override
    public void progress(double progress, Double total, String message) {
      events.add("progress " + (int) progress + "/" + total.intValue());
    }

    @Override
    public void log(String level, String message) {
      events.add(level + " " + message);
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public boolean clientSupports(String name) {
      return capable;
    }

    @Override
    public JsonNode request(String method, JsonNode params) {
      events.add(method);
      requests.add(params);
      return reply;
    }

    @Override
    public void closeStream() {
      events.add("closeStream");
    }
  }

  @Test
  void serviceLoader_findsAHandlerForEveryHandlerBoundToolOfTheSkill() {
    Skill skill =
        new SkillLoader(LoaderOptions.DEFAULTS)
            .load(List.of(SkillRoot.of(SAMPLES, Scope.REPO)))
            .skill("mcp-conformance")
            .orElseThrow();
    List<String> ids =
        skill.tools().stream().map(t -> ((ToolBinding.Handler) t.binding()).handlerId()).toList();

    assertThat(ids).hasSize(35);
    assertThat(serviceLoaded().keySet()).containsAll(ids);
    assertThat(serviceLoaded().keySet().stream().filter(id -> id.startsWith("mcp-conformance.")))
        .containsExactlyInAnyOrderElementsOf(ids);
  }

  @Test
  void contentTools_answerWithTheKindsTheSuiteExpects() throws Exception {
    assertThat(call("test_simple_text", "{}", null).content())
        .containsExactly(new Content.Text("This is a simple text response for testing."));
    assertThat(call("test_image_content", "{}", null).content().get(0))
        .isInstanceOfSatisfying(
            Content.Image.class,
            i -> {
              assertThat(i.mimeType()).isEqualTo("image/png");
              assertThat(Base64.getDecoder().decode(i.base64Data()))
                  .startsWith(0x89, 'P', 'N', 'G');
            });
    assertThat(call("test_embedded_resource", "{}", null).content())
        .containsExactly(
            new Content.EmbeddedResource(
                "test://embedded-resource",
                "text/plain",
                "This is an embedded resource content.",
                null));
    assertThat(call("test_multiple_content_types", "{}", null).content())
        .extracting(c -> c.getClass().getSimpleName())
        .containsExactly("Text", "Image", "EmbeddedResource");
    ToolResult error = call("test_error_handling", "{}", null);
    assertThat(error.isError()).isTrue();
    assertThat(error.content()).isNotEmpty();
  }

  @Test
  void audio_isAWellFormedWavFile() throws Exception {
    Content.Audio audio = (Content.Audio) call("test_audio_content", "{}", null).content().get(0);
    byte[] wav = Base64.getDecoder().decode(audio.base64Data());
    ByteBuffer header = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);

    assertThat(audio.mimeType()).isEqualTo("audio/wav");
    assertThat(new String(wav, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("RIFF");
    assertThat(header.getInt(4)).isEqualTo(wav.length - 8);
    assertThat(new String(wav, 8, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("WAVE");
    assertThat(header.getInt(40)).isEqualTo(wav.length - 44);
  }

  @Test
  void loggingAndProgress_reportThreeStepsInOrder() throws Exception {
    RecordingContext ctx = new RecordingContext(false, null);

    call("test_tool_with_logging", "{}", ctx);
    call("test_tool_with_progress", "{}", ctx);

    assertThat(ctx.events)
        .containsExactly(
            "info Tool execution started",
            "info Tool processing data",
            "info Tool execution completed",
            "progress 0/100",
            "progress 50/100",
            "progress 100/100");
  }

  @Test
  void reconnection_closesItsStreamBeforeAnswering() throws Exception {
    RecordingContext ctx = new RecordingContext(false, null);

    ToolResult result = call("test_reconnection", "{}", ctx);

    assertThat(ctx.events).containsExactly("closeStream");
    assertThat(result.isError()).isFalse();
  }

  @Test
  void sampling_capableClient_sendsThePromptAndQuotesTheAnswer() throws Exception {
    RecordingContext ctx =
        new RecordingContext(
            true, JSON.readTree("{\"content\":{\"type\":\"text\",\"text\":\"hi\"}}"));

    ToolResult result = call("test_sampling", "{\"prompt\":\"Say hi\"}", ctx);

    assertThat(ctx.events).containsExactly("sampling/createMessage");
    assertThat(ctx.requests.get(0).at("/messages/0/content/text").asText()).isEqualTo("Say hi");
    assertThat(ctx.requests.get(0).path("maxTokens").asInt()).isEqualTo(100);
    assertThat(result.content()).containsExactly(new Content.Text("LLM response: hi"));
  }

  @Test
  void sampling_clientWithoutSampling_isAnErrorResult() throws Exception {
    RecordingContext ctx = new RecordingContext(false, null);

    ToolResult result = call("test_sampling", "{\"prompt\":\"x\"}", ctx);

    assertThat(result.isError()).isTrue();
    assertThat(ctx.requests).isEmpty();
  }

  @Test
  void elicitationDefaults_schemaCarriesEveryDefault() throws Exception {
    RecordingContext ctx =
        new RecordingContext(true, JSON.readTree("{\"action\":\"accept\",\"content\":{}}"));

    ToolResult result = call("test_elicitation_sep1034_defaults", "{}", ctx);

    JsonNode p = ctx.requests.get(0).path("requestedSchema").path("properties");
    assertThat(p.at("/name/default").asText()).isEqualTo("John Doe");
    assertThat(p.at("/age/default").asInt()).isEqualTo(30);
    assertThat(p.at("/age/type").asText()).isEqualTo("integer");
    assertThat(p.at("/score/default").asDouble()).isEqualTo(95.5);
    assertThat(p.at("/status/default").asText()).isEqualTo("active");
    assertThat(p.at("/status/enum")).hasSize(3);
    assertThat(p.at("/verified/default").asBoolean()).isTrue();
    assertThat(((Content.Text) result.content().get(0)).text())
        .startsWith("Elicitation completed: action=accept");
  }

  @Test
  void elicitationEnums_schemaHasTheFiveForms() throws Exception {
    RecordingContext ctx = new RecordingContext(true, JSON.readTree("{\"action\":\"decline\"}"));

    call("test_elicitation_sep1330_enums", "{}", ctx);

    JsonNode p = ctx.requests.get(0).path("requestedSchema").path("properties");
    assertThat(p.at("/untitledSingle/enum")).hasSize(3);
    assertThat(p.at("/titledSingle/oneOf/0/const").asText()).isEqualTo("value1");
    assertThat(p.at("/titledSingle/oneOf/0/title").asText()).isEqualTo("First Option");
    assertThat(p.at("/legacyEnum/enumNames")).hasSize(3);
    assertThat(p.at("/untitledMulti/items/enum")).hasSize(3);
    assertThat(p.at("/titledMulti/items/anyOf/2/title").asText()).isEqualTo("Third Choice");
  }

  @Test
  void fixtureFiles_pngResourceMatchesTheImageTheToolsReturn() throws Exception {
    Path png = SAMPLES.resolve("mcp-conformance/resources/red-pixel.png");

    assertThat(Files.readAllBytes(png)).isEqualTo(ConformanceHandlers.redPixel());
  }
}
