package dev.skillport.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.skillport.mcp.transport.StreamableHttpTransport;
import dev.skillport.model.diagnostic.Diagnostic;
import dev.skillport.model.diagnostic.DiagnosticCode;
import dev.skillport.model.skill.Scope;
import dev.skillport.model.skill.SkillRoot;
import dev.skillport.server.serve.ServeConfig;
import dev.skillport.server.serve.SkillportServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real server with the sample Python host-adapter plugin (the jar this reactor built) in its
 * plugin folder, next to broken plugins, driven over Streamable HTTP by the MCP Java SDK client.
 */
class PythonHostPluginIT {
  @TempDir Path tmp;
  private Path skills;
  private SkillportServer server;
  private StreamableHttpTransport http;
  private final List<McpSchema.ResourceContents> resourceUpdates = new CopyOnWriteArrayList<>();

  @BeforeEach
  void skills() throws IOException {
    skills = tmp.resolve("skills");
    write(
        skills.resolve("host-echo/SKILL.md"),
        """
        ---
        name: host-echo
        description: Echoes its arguments from inside the Python host
        metadata:
          dcc-mcp:
            dcc: python
            tools: tools.yaml
        ---
        Echo.
        """);
    write(
        skills.resolve("host-echo/tools.yaml"),
        """
        tools:
          - name: echo
            thread-affinity: main
            source_file: scripts/echo.py
            input_schema:
              type: object
              properties: {text: {type: string}}
              required: [text]
        """);
    write(
        skills.resolve("host-echo/scripts/echo.py"),
        """
        import os
        def main(text, **params):
            return {"echo": text, "pid": os.getpid(), "main_thread": ON_MAIN_THREAD}
        """);
    write(
        skills.resolve("plain-count/SKILL.md"),
        """
        ---
        name: plain-count
        description: Counts characters in a subprocess
        ---
        Count.
        """);
    write(
        skills.resolve("plain-count/scripts/count.py"),
        "import json, sys\nprint(json.dumps({'length': len(json.load(sys.stdin)['text'])}))\n");
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

  private McpSyncClient start(List<Path> pluginFolders) throws Exception {
    ServeConfig config = ServeConfig.of(List.of(SkillRoot.of(skills, Scope.REPO))).withWatch(false);
    server = SkillportServer.start(config, "0.1.0", pluginFolders);
    http = StreamableHttpTransport.builder(server.mcp()).host("127.0.0.1").port(0).build();
    http.start();
    http.setReady(true);
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + http.port())
            .endpoint("/mcp")
            .build();
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(30))
            .resourcesUpdateConsumer(resourceUpdates::addAll)
            .build();
    client.initialize();
    return client;
  }

  private static McpSchema.CallToolResult call(
      McpSyncClient client, String name, Map<String, Object> args) {
    return client.callTool(McpSchema.CallToolRequest.builder(name).arguments(args).build());
  }

  private Path pluginFolderWithSampleAndBrokenPlugins() throws IOException {
    Path plugins = tmp.resolve("plugins");
    Path sample = Path.of(System.getProperty("skillport.pythonHostPlugin"));
    assertThat(sample).as("the sample plugin jar built by this reactor").exists();
    Files.createDirectories(plugins);
    Files.copy(sample, plugins.resolve("adapter-python-host.jar"));
    Path work = tmp.resolve("work");
    Files.createDirectories(work);
    String plugin = "package broken;\npublic class P extends org.pf4j.Plugin {}\n";
    PluginJars.in(work)
        .plugin(null, "1.0.0", "broken.P")
        .source("broken.P", plugin)
        .writeTo(plugins.resolve("b1-no-id.jar"));
    PluginJars.in(work)
        .plugin("ghost", "1.0.0", "broken.Missing")
        .source("broken.P", plugin)
        .writeTo(plugins.resolve("b2-missing-class.jar"));
    PluginJars.in(work)
        .plugin("boom", "1.0.0", "broken.Boom")
        .source(
            "broken.Boom",
            """
            package broken;
            public class Boom extends org.pf4j.Plugin {
              @Override public void start() { throw new IllegalStateException("boom"); }
            }
            """)
        .writeTo(plugins.resolve("b3-start-throws.jar"));
    byte[] api;
    try (InputStream in =
        getClass().getResourceAsStream("/dev/skillport/api/host/HostAdapter.class")) {
      api = in.readAllBytes();
    }
    PluginJars.in(work)
        .plugin("fat", "1.0.0", "broken.P")
        .source("broken.P", plugin)
        .file("dev/skillport/api/host/HostAdapter.class", api)
        .writeTo(plugins.resolve("b4-bundles-api.jar"));
    return plugins;
  }

  @Test
  void mainThreadTool_withSamplePlugin_runsInsideThePythonHost() throws Exception {
    try (McpSyncClient client = start(List.of(pluginFolderWithSampleAndBrokenPlugins()))) {
      assertThat(server.plugins().diagnostics())
          .extracting(Diagnostic::code)
          .containsExactlyInAnyOrder(
              DiagnosticCode.PLUGIN_INVALID,
              DiagnosticCode.PLUGIN_INVALID,
              DiagnosticCode.PLUGIN_START_FAILED,
              DiagnosticCode.PLUGIN_BUNDLES_API);
      assertThat(server.plugins().pluginIds()).containsExactly("python-host");

      McpSchema.CallToolResult loaded =
          call(client, "load_skill", Map.of("skill_name", "host-echo"));
      assertThat(loaded.isError()).as(loaded.toString()).isFalse();
      McpSchema.CallToolResult first = call(client, "echo", Map.of("text", "hi"));
      McpSchema.CallToolResult second = call(client, "echo", Map.of("text", "again"));
      assertThat(first.isError()).as(first.toString()).isFalse();
      Map<?, ?> a = (Map<?, ?>) first.structuredContent();
      Map<?, ?> b = (Map<?, ?>) second.structuredContent();
      assertThat(a.get("echo")).isEqualTo("hi");
      assertThat(a.get("main_thread")).isEqualTo(true);
      // One interpreter serves both calls: the host, not a process per call.
      assertThat(b.get("pid")).isEqualTo(a.get("pid"));
      assertThat(((Number) a.get("pid")).longValue()).isNotEqualTo(ProcessHandle.current().pid());

      // The skill shipped inside the plugin, its state kept between calls, and its Java handler.
      McpSchema.CallToolResult scene =
          call(client, "load_skill", Map.of("skill_name", "python-scene"));
      assertThat(scene.isError()).as(scene.toString()).isFalse();
      client.subscribeResource(new McpSchema.SubscribeRequest("scene://current", null));
      call(client, "add_object", Map.of("name", "lamp", "kind", "light"));
      // A subscriber hears of the change and re-reads the scene with the new object in it.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> resourceUpdates.stream().anyMatch(c -> c.uri().equals("scene://current")));
      assertThat(((McpSchema.TextResourceContents) resourceUpdates.get(0)).text()).contains("lamp");
      McpSchema.CallToolResult info = call(client, "scene_info", Map.of());
      assertThat(info.structuredContent().toString()).contains("lamp");

      // The adapter's resource: the live host scene, listed and readable like any resource.
      assertThat(client.listResources().resources())
          .extracting(McpSchema.Resource::uri)
          .contains("scene://current");
      McpSchema.ReadResourceResult read =
          client.readResource(new McpSchema.ReadResourceRequest("scene://current", null));
      McpSchema.TextResourceContents sceneNow =
          (McpSchema.TextResourceContents) read.contents().get(0);
      assertThat(sceneNow.mimeType()).isEqualTo("application/json");
      assertThat(sceneNow.text()).contains("\"lamp\"").contains("\"pid\":" + a.get("pid"));
      McpSchema.CallToolResult hostInfo = call(client, "host_info", Map.of());
      assertThat(hostInfo.structuredContent().toString()).contains("python-host");

      // Skills that need no host keep working next to the broken plugins.
      call(client, "load_skill", Map.of("skill_name", "plain-count"));
      McpSchema.CallToolResult count = call(client, "count", Map.of("text", "four"));
      assertThat(count.structuredContent().toString()).contains("4");
    }
  }

  @Test
  void mainThreadTool_withoutPlugin_failsToLoadNamingTheMissingAdapter() throws Exception {
    try (McpSyncClient client = start(List.of(tmp.resolve("no-plugins")))) {
      McpSchema.CallToolResult loaded =
          call(client, "load_skill", Map.of("skill_name", "host-echo"));
      assertThat(loaded.isError()).isTrue();
      assertThat(loaded.content().toString())
          .contains("host adapter for 'python'")
          .contains("thread-affinity: main");
      McpSchema.CallToolResult plain =
          call(client, "load_skill", Map.of("skill_name", "plain-count"));
      assertThat(plain.isError()).isFalse();
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
