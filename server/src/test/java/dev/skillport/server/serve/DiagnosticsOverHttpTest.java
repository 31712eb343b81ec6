package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.bundled.BundledSkills;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.plugins.PluginJars;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled {@code skillport-diagnostics} skill end to end: a real server on 127.0.0.1 with the
 * bundled skills, one broken skill and one plugin that fails to start, driven over Streamable HTTP
 * by the MCP Java SDK client.
 */
class DiagnosticsOverHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private BundledSkills bundled;
  private SkillportServer server;
  private StreamableHttpTransport http;

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @BeforeEach
  void start() throws Exception {
    Path skills = tmp.resolve("skills");
    write(
        skills.resolve("mesh-tools/SKILL.md"),
        "---\nname: mesh-tools\ndescription: Mesh helpers\n"
            + "metadata:\n  dcc-mcp:\n    tools: tools.yaml\n---\nFaces.\n");
    write(
        skills.resolve("mesh-tools/tools.yaml"),
        "tools:\n  - name: count_faces\n    description: Count faces\n    handler: mesh.count\n");
    write(skills.resolve("no-description/SKILL.md"), "---\nname: no-description\n---\nBody.\n");
    Path plugins = tmp.resolve("plugins");
    PluginJars.in(Files.createDirectories(tmp.resolve("work")))
        .plugin("boom", "1.0.0", "broken.Boom")
        .source(
            "broken.Boom",
            """
            package broken;
            public class Boom extends org.pf4j.Plugin {
              @Override public void start() { throw new IllegalStateException("boom"); }
            }
            """)
        .writeTo(plugins.resolve("boom.jar"));

    Map<String, ToolHandler> handlers = new LinkedHashMap<>();
    handlers.put(
        "mesh.count",
        inv -> {
          if (inv.arguments().has("fail")) {
            throw new IllegalStateException("no mesh");
          }
          return ToolResult.text("6 faces");
        });
    bundled = BundledSkills.unpack();
    ServeConfig config =
        new ServeConfig(
            List.of(
                SkillRoot.of(skills, Scope.REPO),
                new SkillRoot(bundled.root(), Scope.SYSTEM, "bundled")),
            LoaderOptions.DEFAULTS,
            List.of(),
            handlers,
            Duration.ofSeconds(20),
            false);
    server = SkillportServer.start(config, "9.8.7", List.of(plugins));
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
    server.transportStarted(http.uri().toString());
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    if (server != null) {
      server.close();
    }
    if (bundled != null) {
      bundled.close();
    }
  }

  private McpSyncClient client() {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + http.port())
            .endpoint("/mcp")
            .build();
    McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
    client.initialize();
    return client;
  }

  private static McpSchema.CallToolResult call(
      McpSyncClient client, String name, Map<String, Object> args) {
    return client.callTool(McpSchema.CallToolRequest.builder(name).arguments(args).build());
  }

  private static JsonNode structured(McpSyncClient client, String name, Map<String, Object> args) {
    McpSchema.CallToolResult result = call(client, name, args);
    assertThat(result.isError()).as(name + ": " + result).isFalse();
    return JSON.valueToTree(result.structuredContent());
  }

  @Test
  void diagnosticsTools_afterSomeCalls_reportCountsCallsStatusAndPluginFailure() {
    try (McpSyncClient client = client()) {
      assertThat(call(client, "load_skill", Map.of("skill_name", "mesh-tools")).isError())
          .isFalse();
      for (int i = 0; i < 3; i++) {
        assertThat(call(client, "count_faces", Map.of()).isError()).isFalse();
      }
      assertThat(call(client, "count_faces", Map.of("fail", true)).isError()).isTrue();
      assertThat(
              call(client, "load_skill", Map.of("skill_name", "skillport-diagnostics")).isError())
          .isFalse();

      JsonNode metrics = structured(client, "tool_metrics", Map.of("tool", "count_faces"));
      assertThat(metrics.path("tools")).hasSize(1);
      assertThat(metrics.at("/tools/0/calls").asLong()).isEqualTo(4);
      assertThat(metrics.at("/tools/0/errors").asLong()).isEqualTo(1);
      assertThat(metrics.at("/tools/0/max_ms").asDouble())
          .isGreaterThanOrEqualTo(metrics.at("/tools/0/p95_ms").asDouble())
          .isGreaterThanOrEqualTo(metrics.at("/tools/0/p50_ms").asDouble())
          .isPositive();

      JsonNode recent = structured(client, "recent_calls", Map.of("limit", 3));
      assertThat(recent.path("calls").findValuesAsText("tool"))
          .containsExactly("tool_metrics", "load_skill", "count_faces");
      JsonNode failed = structured(client, "recent_calls", Map.of("outcome", "error"));
      assertThat(failed.path("returned").asInt()).isEqualTo(1);
      assertThat(failed.at("/calls/0/outcome").asText()).isEqualTo("HANDLER_FAILED");
      assertThat(failed.at("/calls/0/arguments/0").asText()).isEqualTo("fail");
      String rawSession = server.service().calls().recent().get(0).session();
      assertThat(failed.at("/calls/0/session").asText())
          .matches("s-[0-9a-f]{12}")
          .isEqualTo(LiveIntrospection.sessionLabel(rawSession))
          .isNotEqualTo(rawSession);

      JsonNode status = structured(client, "server_status", Map.of());
      assertThat(status.path("version").asText()).isEqualTo("9.8.7");
      assertThat(status.path("sessions").asInt()).isEqualTo(1);
      assertThat(status.at("/transports/0").asText()).isEqualTo(http.uri().toString());
      assertThat(status.at("/catalog/generation").asLong()).isPositive();
      assertThat(status.at("/catalog/by_state/available").asInt())
          .isEqualTo(
              status.at("/catalog/skills").asInt()
                  - status.at("/catalog/by_state/skipped").asInt());
      // The skill without a description, and skill-authoring: this server registers no
      // authoring handlers, so the skill naming them is skipped rather than offered.
      assertThat(status.at("/catalog/by_state/skipped").asInt()).isEqualTo(2);
      assertThat(status.path("plugins")).isEmpty();
      assertThat(status.path("plugin_problems").asInt()).isEqualTo(1);

      JsonNode all = structured(client, "skill_diagnostics", Map.of("severity", "error"));
      assertThat(all.path("diagnostics").findValuesAsText("code"))
          .contains(DiagnosticCode.PLUGIN_START_FAILED.name(), "DESCRIPTION_MISSING");
      JsonNode plugin =
          all.path("diagnostics").findParents("source").stream()
              .filter(d -> d.path("source").asText().equals("plugin"))
              .findFirst()
              .orElseThrow();
      assertThat(plugin.path("message").asText()).contains("boom");
      assertThat(plugin.path("file").asText()).endsWith("boom.jar");

      JsonNode one =
          structured(client, "skill_diagnostics", Map.of("skill_name", "no-description"));
      assertThat(one.path("diagnostics").findValuesAsText("skill")).containsOnly("no-description");
      assertThat(one.path("diagnostics").findValuesAsText("source")).containsOnly("loader");
    }
  }
}
