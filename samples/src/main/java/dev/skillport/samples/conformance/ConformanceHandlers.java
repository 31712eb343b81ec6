package dev.skillport.samples.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.skillport.api.host.ToolHandlerExtension;
import dev.skillport.api.tool.ClientRequestException;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolHandlerProvider;
import dev.skillport.api.tool.ToolInvocation;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.sdk.Arguments;
import dev.skillport.sdk.Results;
import dev.skillport.sdk.ToolHandlers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.Map;
import org.pf4j.Extension;

/**
 * Handlers of the {@code mcp-conformance} skill, one per tool, with ids {@code
 * mcp-conformance.<tool>}. Each answers exactly as the conformance suite's scenario expects. Found
 * by {@link java.util.ServiceLoader} on a class path, and as a PF4J extension in the plugin jar the
 * build makes of this module ({@code samples/target/plugins/mcp-conformance.jar}).
 */
@Extension
public final class ConformanceHandlers implements ToolHandlerExtension {
  /** The prefix of every handler id of this skill. */
  public static final String PREFIX = "mcp-conformance.";

  /** A 1x1 red PNG. */
  static final String RED_PIXEL_PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

  static final String SIMPLE_TEXT = "This is a simple text response for testing.";
  static final String ERROR_TEXT = "This tool intentionally returns an error for testing";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long STEP_MILLIS = 50;

  private static final ToolHandlerProvider HANDLERS =
      ToolHandlers.builder()
          .handler(PREFIX + "test_simple_text", inv -> Results.text(SIMPLE_TEXT))
          .handler(
              PREFIX + "test_image_content",
              inv -> Results.builder().imageBase64(RED_PIXEL_PNG, "image/png").build())
          .handler(
              PREFIX + "test_audio_content",
              inv -> Results.builder().audio(silentWav(), "audio/wav").build())
          .handler(
              PREFIX + "test_embedded_resource",
              inv ->
                  Results.builder()
                      .resource(
                          "test://embedded-resource",
                          "text/plain",
                          "This is an embedded resource content.")
                      .build())
          .handler(
              PREFIX + "test_multiple_content_types",
              inv ->
                  Results.builder()
                      .text("Multiple content types test:")
                      .imageBase64(RED_PIXEL_PNG, "image/png")
                      .resource(
                          "test://mixed-content-resource",
                          "application/json",
                          "{\"test\":\"data\",\"value\":123}")
                      .build())
          .handler(PREFIX + "test_tool_with_logging", ConformanceHandlers::logging)
          .handler(PREFIX + "test_tool_with_progress", ConformanceHandlers::progress)
          .handler(PREFIX + "test_error_handling", inv -> Results.error(ERROR_TEXT))
          .handler(PREFIX + "test_reconnection", ConformanceHandlers::reconnection)
          .handler(PREFIX + "test_sampling", ConformanceHandlers::sampling)
          .handler(PREFIX + "test_elicitation", ConformanceHandlers::elicitation)
          .handler(
              PREFIX + "test_elicitation_sep1034_defaults",
              inv -> elicitForm(inv.context(), "Please review your profile", defaultsSchema()))
          .handler(
              PREFIX + "test_elicitation_sep1330_enums",
              inv -> elicitForm(inv.context(), "Please pick your options", enumsSchema()))
          .handler(
              PREFIX + "json_schema_2020_12_tool",
              inv ->
                  Results.text(
                      "Received " + Arguments.of(inv).string("name", "no name") + " and address"))
          .build();

  @Override
  public Map<String, ToolHandler> handlers() {
    return HANDLERS.handlers();
  }

  private static ToolResult logging(ToolInvocation inv) throws InterruptedException {
    ToolContext ctx = inv.context();
    ctx.log("info", "Tool execution started");
    Thread.sleep(STEP_MILLIS);
    ctx.log("info", "Tool processing data");
    Thread.sleep(STEP_MILLIS);
    ctx.log("info", "Tool execution completed");
    return Results.text("Tool with logging executed successfully");
  }

  private static ToolResult progress(ToolInvocation inv) throws InterruptedException {
    ToolContext ctx = inv.context();
    for (int done = 0; done <= 100; done += 50) {
      if (done > 0) {
        Thread.sleep(STEP_MILLIS);
      }
      ctx.progress(done, 100.0, null);
    }
    return Results.text("Tool with progress executed successfully");
  }

  /** Ends the response stream mid-call; the result reaches a client that resumes the stream. */
  private static ToolResult reconnection(ToolInvocation inv) throws InterruptedException {
    inv.context().closeStream();
    Thread.sleep(2 * STEP_MILLIS);
    return Results.text("Reconnection test completed successfully");
  }

  private static ToolResult sampling(ToolInvocation inv) throws InterruptedException {
    ObjectNode params = NODES.objectNode();
    ObjectNode message = params.putArray("messages").addObject().put("role", "user");
    message
        .putObject("content")
        .put("type", "text")
        .put("text", Arguments.of(inv).string("prompt"));
    params.put("maxTokens", 100);
    try {
      JsonNode answer = inv.context().sample(params);
      return Results.text("LLM response: " + answer.path("content").path("text").asText(""));
    } catch (ClientRequestException e) {
      return Results.error("Sampling failed: " + e.getMessage());
    }
  }

  private static ToolResult elicitation(ToolInvocation inv) throws InterruptedException {
    ObjectNode schema = objectSchema();
    ObjectNode properties = (ObjectNode) schema.get("properties");
    properties.putObject("username").put("type", "string").put("description", "User's response");
    properties.putObject("email").put("type", "string").put("description", "User's email address");
    schema.putArray("required").add("username").add("email");
    try {
      JsonNode answer =
          inv.context().elicit(elicitParams(Arguments.of(inv).string("message"), schema));
      return Results.text(
          "User response: action="
              + answer.path("action").asText()
              + ", content="
              + answer.path("content"));
    } catch (ClientRequestException e) {
      return Results.error("Elicitation failed: " + e.getMessage());
    }
  }

  private static ToolResult elicitForm(ToolContext ctx, String message, ObjectNode schema)
      throws InterruptedException {
    try {
      JsonNode answer = ctx.elicit(elicitParams(message, schema));
      return Results.text(
          "Elicitation completed: action="
              + answer.path("action").asText()
              + ", content="
              + answer.path("content"));
    } catch (ClientRequestException e) {
      return Results.error("Elicitation failed: " + e.getMessage());
    }
  }

  private static ObjectNode elicitParams(String message, ObjectNode schema) {
    ObjectNode params = NODES.objectNode().put("message", message);
    params.set("requestedSchema", schema);
    return params;
  }

  private static ObjectNode objectSchema() {
    ObjectNode schema = NODES.objectNode().put("type", "object");
    schema.putObject("properties");
    return schema;
  }

  /** SEP-1034: a default for every primitive type. */
  static ObjectNode defaultsSchema() {
    ObjectNode schema = objectSchema();
    ObjectNode p = (ObjectNode) schema.get("properties");
    p.putObject("name")
        .put("type", "string")
        .put("description", "User name")
        .put("default", "John Doe");
    p.putObject("age").put("type", "integer").put("description", "User age").put("default", 30);
    p.putObject("score")
        .put("type", "number")
        .put("description", "User score")
        .put("default", 95.5);
    ObjectNode status =
        p.putObject("status").put("type", "string").put("description", "User status");
    status.putArray("enum").add("active").add("inactive").add("pending");
    status.put("default", "active");
    p.putObject("verified")
        .put("type", "boolean")
        .put("description", "Verification status")
        .put("default", true);
    schema.putArray("required");
    return schema;
  }

  /** SEP-1330: the five enum forms. */
  static ObjectNode enumsSchema() {
    ObjectNode schema = objectSchema();
    ObjectNode p = (ObjectNode) schema.get("properties");
    ObjectNode untitledSingle = p.putObject("untitledSingle").put("type", "string");
    untitledSingle.putArray("enum").add("option1").add("option2").add("option3");
    ObjectNode titledSingle = p.putObject("titledSingle").put("type", "string");
    titled(
        titledSingle.putArray("oneOf"), "value", "First Option", "Second Option", "Third Option");
    ObjectNode legacy = p.putObject("legacyEnum").put("type", "string");
    legacy.putArray("enum").add("opt1").add("opt2").add("opt3");
    legacy.putArray("enumNames").add("Option One").add("Option Two").add("Option Three");
    ObjectNode untitledMulti = p.putObject("untitledMulti").put("type", "array");
    ObjectNode items = untitledMulti.putObject("items").put("type", "string");
    items.putArray("enum").add("option1").add("option2").add("option3");
    ObjectNode titledMulti = p.putObject("titledMulti").put("type", "array");
    titled(
        titledMulti.putObject("items").putArray("anyOf"),
        "value",
        "First Choice",
        "Second Choice",
        "Third Choice");
    return schema;
  }

  private static void titled(ArrayNode options, String prefix, String... titles) {
    for (int i = 0; i < titles.length; i++) {
      options.addObject().put("const", prefix + (i + 1)).put("title", titles[i]);
    }
  }

  /** A valid WAV file: 8 kHz, 16-bit mono, 10 ms of silence. */
  static byte[] silentWav() {
    int samples = 80;
    int dataBytes = samples * 2;
    ByteBuffer wav = ByteBuffer.allocate(44 + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
    wav.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(36 + dataBytes);
    wav.put(new byte[] {'W', 'A', 'V', 'E', 'f', 'm', 't', ' '}).putInt(16);
    wav.putShort((short) 1).putShort((short) 1).putInt(8000).putInt(16000);
    wav.putShort((short) 2).putShort((short) 16);
    wav.put(new byte[] {'d', 'a', 't', 'a'}).putInt(dataBytes);
    return wav.array();
  }

  /** The PNG as bytes, for tests. */
  static byte[] redPixel() {
    return Base64.getDecoder().decode(RED_PIXEL_PNG);
  }
}
