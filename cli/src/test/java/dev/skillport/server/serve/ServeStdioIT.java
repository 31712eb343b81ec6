package dev.skillport.server.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.skillport.testsupport.ChildJvm;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skillport serve --stdio} as a child process (the shaded jar), driven by the official MCP
 * Java SDK's stdio client over the sample skills.
 */
class ServeStdioIT {
  private static McpSchema.CallToolRequest call(String name, Map<String, Object> args) {
    return McpSchema.CallToolRequest.builder(name).arguments(args).build();
  }

  @TempDir Path jobs;

  @Test
  void serveStdio_samples_loadAndCallScriptTool() {
    Path jar =
        Path.of(System.getProperty("skillport.jar", "target/skillport.jar")).toAbsolutePath();
    Path samples =
        Path.of(System.getProperty("skillport.samples", "../samples/skills")).toAbsolutePath();
    ServerParameters params =
        ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
            .args(
                Stream.concat(
                        ChildJvm.systemProperties().stream(),
                        Stream.of(
                            "-jar",
                            jar.toString(),
                            "serve",
                            "--stdio",
                            "--no-watch",
                            "--jobs-dir",
                            jobs.toString(),
                            "--skills",
                            samples.toString()))
                    .toList())
            .build();
    List<List<McpSchema.Tool>> changes = new CopyOnWriteArrayList<>();
    StdioClientTransport transport =
        new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
    try (McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(60))
            .toolsChangeConsumer(changes::add)
            .build()) {
      McpSchema.InitializeResult init = client.initialize();
      assertThat(init.serverInfo().name()).isEqualTo("skillport");
      List<String> before = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
      assertThat(before).contains("search_skills", "__skill__file-stats");

      McpSchema.CallToolResult loaded =
          client.callTool(call("load_skill", Map.of("skill_name", "file-stats")));
      assertThat(loaded.isError()).isFalse();
      List<String> after = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
      assertThat(after).contains("count_lines").doesNotContain("__skill__file-stats");

      McpSchema.CallToolResult counted =
          client.callTool(
              call(
                  "count_lines",
                  Map.of("path", samples.resolve("file-stats/SKILL.md").toString())));
      assertThat(counted.isError()).as(String.valueOf(counted.content())).isFalse();
      assertThat(counted.structuredContent().toString()).contains("lines");
    }
  }
}
