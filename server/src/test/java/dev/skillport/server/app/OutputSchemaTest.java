package dev.skillport.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolContext;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoadResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.loader.SkillLoader;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.registry.Catalog;
import dev.skillport.registry.CatalogHolder;
import dev.skillport.runtime.HandlerRegistry;
import dev.skillport.runtime.ScriptToolRunner;
import dev.skillport.runtime.SessionState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code structuredContent} is checked against a tool's declared {@code output_schema}. */
class OutputSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path root;
  private final AtomicReference<ToolResult> next = new AtomicReference<>();
  private SkillportService service;
  private SessionState session;

  @BeforeEach
  void setUp() throws Exception {
    Path dir = root.resolve("measure");
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("SKILL.md"),
        "---\nname: measure\ndescription: Measures things\nmetadata:\n  dcc-mcp:\n"
            + "    tools: tools.yaml\n---\n");
    Files.writeString(
        dir.resolve("tools.yaml"),
        """
        tools:
          - name: size_of
            description: Size of a thing
            handler: test.size
            output_schema:
              type: object
              properties: {size: {type: integer, minimum: 0}}
              required: [size]
          - name: label_of
            handler: test.size
            output_schema: {type: string, minLength: 1}
          - name: count_of
            handler: test.size
            output_schema: {type: integer}
        """);
    LoadResult loaded =
        new SkillLoader(LoaderOptions.DEFAULTS).load(List.of(SkillRoot.of(root, Scope.REPO)));
    HandlerRegistry handlers = new HandlerRegistry();
    handlers.register("test.size", inv -> next.get());
    service =
        new SkillportService(
            new CatalogHolder(Catalog.of(1, loaded.skills(), loaded.diagnostics())),
            handlers,
            new ScriptToolRunner(Duration.ofSeconds(5), 1024, 1024),
            List.of("measure"),
            100);
    session = service.openSession(n -> {});
  }

  private JsonNode call() throws Exception {
    return service.callTool(session, "size_of", JSON.createObjectNode(), ToolContext.NONE);
  }

  @Test
  void callTool_conformingStructuredContent_isSuccess() throws Exception {
    next.set(ToolResult.structured(JSON.createObjectNode().put("size", 3)));
    JsonNode result = call();
    assertThat(result.get("isError").asBoolean()).isFalse();
    assertThat(result.at("/structuredContent/size").asInt()).isEqualTo(3);
  }

  @Test
  void callTool_structuredContentBreakingSchema_isErrorListingViolations() throws Exception {
    next.set(ToolResult.structured(JSON.createObjectNode().put("size", "big")));
    JsonNode result = call();
    assertThat(result.get("isError").asBoolean()).isTrue();
    assertThat(result.at("/structuredContent/code").asText()).isEqualTo("OUTPUT_SCHEMA_MISMATCH");
    assertThat(result.at("/structuredContent/message").asText()).contains("size");
  }

  @Test
  void callTool_noStructuredContent_isError() throws Exception {
    next.set(ToolResult.text("three"));
    JsonNode result = call();
    assertThat(result.get("isError").asBoolean()).isTrue();
    assertThat(result.at("/structuredContent/code").asText()).isEqualTo("OUTPUT_SCHEMA_MISMATCH");
  }

  @Test
  void callTool_toolErrorWithOutputSchema_isPassedThroughUnchanged() throws Exception {
    next.set(ToolResult.error("disk not found"));
    JsonNode result = call();
    assertThat(result.get("isError").asBoolean()).isTrue();
    assertThat(result.at("/content/0/text").asText()).isEqualTo("disk not found");
  }

  private JsonNode call(String tool) throws Exception {
    return service.callTool(session, tool, JSON.createObjectNode(), ToolContext.NONE);
  }

  @Test
  void callTool_stringOutputSchema_wrapsTheTextUnderResult() throws Exception {
    next.set(ToolResult.text("42"));
    JsonNode result = call("label_of");
    assertThat(result.get("isError").asBoolean()).as(result.toString()).isFalse();
    assertThat(result.get("structuredContent")).isEqualTo(JSON.readTree("{\"result\":\"42\"}"));
    assertThat(result.at("/content/0/text").asText()).isEqualTo("42");
  }

  @Test
  void callTool_integerOutputSchema_readsTheTextAsJson() throws Exception {
    next.set(ToolResult.text("42\n"));
    JsonNode result = call("count_of");
    assertThat(result.get("structuredContent")).isEqualTo(JSON.readTree("{\"result\":42}"));
  }

  @Test
  void callTool_wrappedValueBreakingSchema_isErrorListingViolations() throws Exception {
    next.set(ToolResult.text("many"));
    JsonNode result = call("count_of");
    assertThat(result.get("isError").asBoolean()).isTrue();
    assertThat(result.at("/structuredContent/code").asText()).isEqualTo("OUTPUT_SCHEMA_MISMATCH");
  }

  @Test
  void listTools_wrappedOutput_isListedAsAnObjectSchema() throws Exception {
    JsonNode listed = service.listTools(session, null).get("tools");
    JsonNode label = null;
    for (JsonNode t : listed) {
      if (t.get("name").asText().equals("label_of")) {
        label = t;
      }
    }
    assertThat(label).isNotNull();
    assertThat(label.get("outputSchema").toString())
        .isEqualTo(
            JSON.readTree(
                    "{\"type\":\"object\",\"properties\":{\"result\":{\"type\":\"string\","
                        + "\"minLength\":1}},\"required\":[\"result\"]}")
                .toString());
  }
}
