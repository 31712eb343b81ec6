package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.api.tool.ToolHandler;
import dev.skillport.api.tool.ToolResult;
import dev.skillport.loader.LoaderOptions;
import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progressive-loading scenario end to end: a real server on 127.0.0.1 over Streamable HTTP,
 * driven by the official MCP Java SDK client.
 */
class SkillportHttpServerTest {
  @TempDir Path skills;
  private SkillportServer server;
  private StreamableHttpTransport http;

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @BeforeEach
  void start() throws Exception {
    write(
        skills.resolve("mesh-tools/SKILL.md"),
        """
        ---
        name: mesh-tools
        description: Polygon mesh helpers
        metadata:
          dcc-mcp:
            tags: [mesh]
            search-hint: polygon cube extrude
            tools: tools.yaml
        ---
        Make cubes.
        """);
    write(
        skills.resolve("mesh-tools/tools.yaml"),
        """
        tools:
          - name: make_cube
            description: Create a cube
            input_schema:
              type: object
              properties: {size: {type: number}}
              required: [size]
          - name: count_faces
            description: Count faces
            handler: mesh.count
        """);
    write(
        skills.resolve("mesh-tools/scripts/make_cube.py"),
        "import json, sys\nprint(json.dumps({'cube': json.load(sys.stdin)['size']}))\n");
    Map<String, ToolHandler> handlers = new LinkedHashMap<>();
    handlers.put("mesh.count", inv -> ToolResult.text("6 faces"));
    ServeConfig config =
        new ServeConfig(
            List.of(SkillRoot.of(skills, Scope.REPO)),
            LoaderOptions.DEFAULTS,
            List.of(),
            handlers,
            Duration.ofSeconds(20),
            true);
    server = SkillportServer.start(config, "test");
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private McpSyncClient client(List<List<McpSchema.Tool>> changes) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + http.port())
            .endpoint("/mcp")
            .build();
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(30))
            .toolsChangeConsumer(changes::add)
            .build();
    client.initialize();
    return client;
  }

  private static McpSchema.CallToolRequest call(String name, Map<String, Object> args) {
    return McpSchema.CallToolRequest.builder(name).arguments(args).build();
  }

  private static List<String> names(McpSyncClient client) {
    return client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
  }

  @Test
  void progressiveLoading_searchLoadCallUnload() {
    List<List<McpSchema.Tool>> changes = new CopyOnWriteArrayList<>();
    try (McpSyncClient client = client(changes)) {
      assertThat(names(client))
          .contains("search_skills", "load_skill", "__skill__mesh-tools")
          .doesNotContain("make_cube");

      for (String query : List.of("extrude", "poly", "polygn")) {
        McpSchema.CallToolResult found =
            client.callTool(call("search_skills", Map.of("query", query)));
        assertThat(found.isError()).isFalse();
        assertThat(found.structuredContent().toString()).as(query).contains("mesh-tools");
      }

      McpSchema.CallToolResult loaded =
          client.callTool(call("load_skill", Map.of("skill_name", "mesh-tools")));
      assertThat(loaded.isError()).isFalse();
      await().atMost(Duration.ofSeconds(10)).until(() -> !changes.isEmpty());
      assertThat(names(client))
          .contains("make_cube", "count_faces")
          .doesNotContain("__skill__mesh-tools");

      McpSchema.CallToolResult script = client.callTool(call("make_cube", Map.of("size", 3)));
      assertThat(script.isError()).isFalse();
      assertThat(script.structuredContent().toString()).contains("cube");

      McpSchema.CallToolResult java = client.callTool(call("count_faces", Map.of()));
      assertThat(java.isError()).isFalse();
      assertThat(((McpSchema.TextContent) java.content().get(0)).text()).isEqualTo("6 faces");

      client.callTool(call("unload_skill", Map.of("skill_name", "mesh-tools")));
      assertThat(names(client)).contains("__skill__mesh-tools").doesNotContain("make_cube");
    }
  }

  @Test
  void twoSessions_doNotSeeEachOthersLoads() {
    try (McpSyncClient a = client(new CopyOnWriteArrayList<>());
        McpSyncClient b = client(new CopyOnWriteArrayList<>())) {
      a.callTool(call("load_skill", Map.of("skill_name", "mesh-tools")));
      assertThat(names(a)).contains("make_cube");
      assertThat(names(b)).doesNotContain("make_cube").contains("__skill__mesh-tools");
    }
  }

  @Test
  void editingSkillFile_whileConnected_notifiesAndListsNewTool() throws Exception {
    List<List<McpSchema.Tool>> changes = new CopyOnWriteArrayList<>();
    try (McpSyncClient client = client(changes)) {
      client.callTool(call("load_skill", Map.of("skill_name", "mesh-tools")));
      await().atMost(Duration.ofSeconds(10)).until(() -> !changes.isEmpty());
      int before = changes.size();
      AtomicInteger attempts = new AtomicInteger();
      Path tools = skills.resolve("mesh-tools/tools.yaml");
      Files.writeString(
          tools,
          Files.readString(tools) + "  - name: bevel\n    description: Bevel edges\n",
          java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
      await()
          .atMost(Duration.ofSeconds(15))
          .until(
              () -> {
                attempts.incrementAndGet();
                return changes.size() > before;
              });
      assertThat(names(client)).contains("bevel", "make_cube");
    }
  }
}
